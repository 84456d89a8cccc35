import { afterEach, describe, expect, test } from "bun:test";
import { createAction } from "../../../server/actions/store.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { createTestAccount } from "../../helpers/context.ts";
import { call, expectDocumented, expectPanelSecurity, expectRefusal } from "./chat-bot-panel.ts";

/**
 * The run route and the run log over HTTP (CONTRACT §6 "Actions"), with no OBS connected: a run
 * answers the step that could not run, saying OBS is not connected, and is logged; a bad or another
 * account's id is refused; both routes want the session, and the run the dashboard's Origin.
 */

interface RunData {
  ok: boolean;
  steps: { type: string; ok: boolean; error: string | null }[];
}

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

async function action(accountId: number) {
  const input = {
    name: "Scene",
    enabled: true,
    cooldownSeconds: 0,
    trigger: { type: "button" } as const,
    steps: [{ type: "obs.scene", scene: "Live" } as const],
  };
  return (await createAction(h.ctx.db, accountId, input, Date.now()))!.id;
}

describe("POST /api/dashboard/actions/:id/run and GET …/runs", () => {
  test("without OBS: the run fails on its first step saying OBS is not connected, and is logged", async () => {
    h = await startBotHarness();
    const id = await action(h.account.id);
    const run = await call<RunData>(h, "POST", `/api/dashboard/actions/${id}/run`);
    expect(run.status).toBe(200);
    expect(run.body.data.ok).toBe(false);
    expect(run.body.data.steps).toHaveLength(1);
    expect(run.body.data.steps[0]!.error).toStartWith("OBS is not connected");
    const runs = await call<{ items: { at: string; ok: boolean; cause: string; user: string }[] }>(
      h,
      "GET",
      `/api/dashboard/actions/${id}/runs`,
    );
    expect(runs.body.data.items).toHaveLength(1);
    expect(runs.body.data.items[0]).toMatchObject({ ok: false, cause: "button", user: "CuebotDemo" });
    expect(new Date(runs.body.data.items[0]!.at).toISOString()).toBe(runs.body.data.items[0]!.at);
    const listed = await call<{ items: { lastRun: { ok: boolean; error: string } }[] }>(
      h,
      "GET",
      "/api/dashboard/actions",
    );
    expect(listed.body.data.items[0]!.lastRun.error).toStartWith("OBS is not connected");
  });

  test("an unknown id, another account's, or one that is no number is refused", async () => {
    h = await startBotHarness();
    const stranger = await createTestAccount(h.ctx, { login: "someone_else" });
    const theirs = await action(stranger.account.id);
    expectRefusal(await call(h, "POST", `/api/dashboard/actions/${theirs}/run`), 404, "not_found");
    expectRefusal(await call(h, "GET", `/api/dashboard/actions/${theirs}/runs`), 404, "not_found");
    expectRefusal(await call(h, "POST", "/api/dashboard/actions/x1/run"), 400, "bad_request", "id");
  });

  test("both want the session; the run the dashboard's Origin; both are documented", async () => {
    h = await startBotHarness();
    const id = await action(h.account.id);
    await expectPanelSecurity(h, [
      { method: "POST", path: `/api/dashboard/actions/${id}/run` },
      { method: "GET", path: `/api/dashboard/actions/${id}/runs` },
    ]);
    await expectDocumented(h, {
      "/api/dashboard/actions/{id}/run": ["post"],
      "/api/dashboard/actions/{id}/runs": ["get"],
    });
  });
});
