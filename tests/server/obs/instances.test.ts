/**
 * The OBS connection on several instances: only the chat lease holder holds an account's connection
 * (one client in OBS's session list), every instance answers the dashboard with its state, and the
 * instance that takes the lease over connects in its place.
 */
import { describe, expect, test } from "bun:test";
import { changeObs, obsView } from "../../../server/obs/dashboard.ts";
import { waitFor } from "../../helpers/chat.ts";
import { explainSkip, redisAvailable } from "../../helpers/engines.ts";
import { obsOnInstances } from "../../helpers/instances.ts";

explainSkip("redis");

const TTL_MS = 600;
const PASSWORD = "lease-obs-pw";

describe.skipIf(!redisAvailable)("the OBS connection on two instances", () => {
  const env = obsOnInstances(TTL_MS, PASSWORD);

  test("one connection, held by the lease holder; both answer connected; the next holder takes it over", async () => {
    const { h, obs, instances } = env;
    const a = await instances.start();
    expect(await waitFor(() => a.leadership.leading() && obs.identifiedClients() === 1, 5_000)).toBe(true);
    const b = await instances.start();
    await Bun.sleep(TTL_MS * 2);
    expect(b.leadership.leading()).toBe(false);
    expect(obs.identifiedClients()).toBe(1);
    expect(b.ctx.obs.seen(h.account.id)).toBeNull();
    const onB = await obsView(b.ctx, h.account.id);
    expect({ state: onB.state, obsVersion: onB.obsVersion }).toEqual({
      state: "connected",
      obsVersion: "29.0.2",
    });

    // A dies without a word; B takes the lease over and, with it, the OBS connection.
    a.stores.redis.destroy();
    a.stores.subscriber.destroy();
    expect(await waitFor(() => b.ctx.obs.seen(h.account.id)?.state === "connected", 5 * TTL_MS + 5_000)).toBe(
      true,
    );
    expect(await waitFor(() => obs.identifiedClients() === 1, 10_000)).toBe(true);

    // Settings saved on an instance without the lease reach the holder through the change feed (which
    // listen.ts looks at every 250 ms where changes are not announced; here the test looks).
    const c = await instances.start();
    const wrong = { enabled: true, url: obs.url, via: "server" as const, password: "wrong" };
    await changeObs(c.ctx, h.account.id, wrong);
    const onHolder = () => {
      b.ctx.externalChanges.check();
      return b.ctx.obs.seen(h.account.id)?.state === "auth_failed";
    };
    expect(await waitFor(onHolder, 10_000)).toBe(true);
    expect(
      await waitFor(async () => (await obsView(c.ctx, h.account.id)).state === "auth_failed", 3_000),
    ).toBe(true);
  }, 40_000);
});
