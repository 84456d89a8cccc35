/**
 * Actions on several instances (Redis): a run asked on an instance without the chat lease goes to the
 * lease holder, which holds the account's OBS connection, and its answer comes back; one run at a
 * time holds across instances; with no holder, the instance asked runs it and says OBS is not connected.
 */
import { describe, expect, test } from "bun:test";
import type { RunCause } from "../../../server/actions/model.ts";
import { createAction } from "../../../server/actions/store.ts";
import { waitFor } from "../../helpers/chat.ts";
import { explainSkip, redisAvailable } from "../../helpers/engines.ts";
import { obsOnInstances } from "../../helpers/instances.ts";

explainSkip("redis");

const TTL_MS = 600;
const PASSWORD = "lease-actions-pw";
const BUTTON: RunCause = { trigger: "button", user: "CuebotDemo", amount: null, reward: null, message: null };

describe.skipIf(!redisAvailable)("actions on two instances", () => {
  const env = obsOnInstances(TTL_MS, PASSWORD);

  test("a run asked where the lease is not goes to the holder; one run at a time across both", async () => {
    const { h, obs, instances } = env;
    const a = await instances.start();
    expect(await waitFor(() => a.ctx.obs.seen(h.account.id)?.state === "connected", 5_000)).toBeTruthy();
    const b = await instances.start();
    await Bun.sleep(TTL_MS * 2);
    expect(b.leadership.leading()).toBe(false);
    const input = {
      name: "brb",
      enabled: true,
      cooldownSeconds: 0,
      trigger: { type: "button" } as const,
      steps: [{ type: "wait", seconds: 0.5 } as const, { type: "obs.scene", scene: "BRB" } as const],
    };
    const action = (await createAction(h.ctx.db, h.account.id, input, Date.now()))!;
    const request = { accountId: h.account.id, actionId: action.id, cause: BUTTON };

    const onB = b.ctx.actions.run(request);
    await Bun.sleep(100);
    expect(await a.ctx.actions.run(request)).toEqual({ kind: "busy" });
    expect(await b.ctx.actions.run(request)).toEqual({ kind: "busy" });
    expect(await onB).toEqual({
      kind: "ran",
      answer: {
        ok: true,
        steps: [
          { type: "wait", ok: true, error: null },
          { type: "obs.scene", ok: true, error: null },
        ],
      },
    });
    expect(obs.state.programScene).toBe("BRB");
    expect(await b.ctx.actions.run({ ...request, actionId: action.id + 1000 })).toEqual({ kind: "missing" });
  }, 30_000);

  test("no instance holds the live layer: the instance asked runs it, saying OBS is not connected", async () => {
    const { h, instances } = env;
    await instances.stopAll();
    const c = await instances.start(60_000);
    await c.leadership.stop();
    const action = (await createAction(
      h.ctx.db,
      h.account.id,
      {
        name: "live",
        enabled: true,
        cooldownSeconds: 0,
        trigger: { type: "button" },
        steps: [{ type: "obs.scene", scene: "Live" }],
      },
      Date.now(),
    ))!;
    const outcome = await c.ctx.actions.run({ accountId: h.account.id, actionId: action.id, cause: BUTTON });
    expect(outcome.kind === "ran" && outcome.answer.steps[0]?.error).toStartWith("OBS is not connected");
  }, 30_000);
});
