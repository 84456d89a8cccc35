import { expect } from "bun:test";
import { ManualClock } from "../../server/core/clock.ts";
import { startTwitchSimulator, type TwitchSimulator } from "../../server/sim/twitch/server.ts";
import { createTestContext, type TestContext, type TestContextOptions } from "./context.ts";

export interface IdentityHarness extends TestContext {
  sim: TwitchSimulator;
  clock: ManualClock;
  /** The public URL's origin, which state-changing panel requests must send. */
  origin: string;
  /** Runs the whole browser login as `login`; returns the session cookie header value. */
  login(login: string, options?: { tz?: string }): Promise<{ cookie: string; response: Response }>;
  /** Starts a login and follows the provider's redirect; returns the callback request pieces. */
  startLogin(options?: { tz?: string }): Promise<{ callbackPath: string; stateCookies: string }>;
  stop(): Promise<void>;
}

export function cookieHeader(setCookies: string[]): string {
  return setCookies
    .map((c) => c.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}

/** cuebot's app (in-process) wired to a Twitch simulator listening on loopback. */
export async function startIdentityHarness(
  options: TestContextOptions & { publicUrl?: string } = {},
): Promise<IdentityHarness> {
  const clock = (options.clock as ManualClock | undefined) ?? new ManualClock();
  const publicUrl = options.publicUrl ?? "http://localhost:8080";
  // Like a real provider app: exactly one registered redirect URI.
  const sim = startTwitchSimulator({ clock, client: { redirectUris: [`${publicUrl}/auth/callback`] } });
  const t = await createTestContext({
    ...options,
    clock,
    configure: (config) => {
      config.publicUrl = publicUrl;
      config.twitch.authUrl = sim.authUrl;
      config.twitch.apiUrl = sim.helixUrl;
      config.twitch.clientId = sim.client.id;
      config.twitch.clientSecret = sim.client.secret;
      options.configure?.(config);
    },
  });

  const startLogin = async (opts: { tz?: string } = {}) => {
    const start = await t.request(`/auth/login${opts.tz ? `?tz=${encodeURIComponent(opts.tz)}` : ""}`);
    expect(start.status).toBe(302);
    const stateCookies = cookieHeader(start.headers.getSetCookie());
    const atProvider = await fetch(start.headers.get("location")!, { redirect: "manual" });
    expect(atProvider.status).toBe(302);
    const callback = new URL(atProvider.headers.get("location")!);
    return { callbackPath: `${callback.pathname}${callback.search}`, stateCookies };
  };

  return {
    ...t,
    sim,
    clock,
    origin: new URL(publicUrl).origin,
    startLogin,
    async login(login, opts = {}) {
      sim.knobs.autoApproveAs = login;
      const { callbackPath, stateCookies } = await startLogin(opts);
      const response = await t.request(callbackPath, { headers: { cookie: stateCookies } });
      expect(response.status).toBe(302);
      const session = response.headers.getSetCookie().find((c) => c.startsWith("app_sess="));
      expect(session).toBeDefined();
      return { cookie: session!.split(";")[0]!, response };
    },
    async stop() {
      await t.cleanup();
      await sim.stop();
    },
  };
}
