import { type Account, findAccountByLogin } from "../../db/accounts.ts";
import { revealCredential } from "../../db/credentials.ts";
import type { Consent } from "../../server/identity/routes-flow.ts";
import type { TestContextOptions } from "./context.ts";
import { cookieHeader, type IdentityHarness, startIdentityHarness } from "./twitch.ts";

export interface BotHarness extends IdentityHarness {
  /** cuebotdemo's account. */
  account: Account;
  apiKey: string;
  cookie: string;
  /** A bot call with the key in the query string (as chat bots send it). */
  bot(path: string, headers?: Record<string, string>): Promise<Response>;
  /** A dashboard call with the session cookie (and our Origin for writes). */
  panel(path: string, init?: RequestInit): Promise<Response>;
}

/** cuebotdemo logged in through the simulator, with its API key at hand. */
export async function startBotHarness(
  options: TestContextOptions & { publicUrl?: string } = {},
): Promise<BotHarness> {
  const h = await startIdentityHarness(options);
  const { cookie } = await h.login("cuebotdemo");
  const account = (await findAccountByLogin(h.ctx.db, "cuebotdemo"))!;
  const apiKey = (await revealCredential(h.ctx.db, h.ctx.secrets, "api-key", account.id))!;
  return Object.assign(h, {
    account,
    apiKey,
    cookie,
    bot(path: string, headers: Record<string, string> = {}) {
      const separator = path.includes("?") ? "&" : "?";
      return h.request(`${path}${separator}apiKey=${apiKey}`, { headers });
    },
    panel(path: string, init: RequestInit = {}) {
      const headers = new Headers(init.headers);
      headers.set("cookie", cookie);
      if (init.method && init.method !== "GET") headers.set("origin", h.origin);
      if (init.body && !headers.has("content-type")) headers.set("content-type", "application/json");
      return h.request(path, { ...init, headers });
    },
  });
}

export const NIGHTBOT = (user: string, userLevel = "regular", displayName = user) => ({
  "Nightbot-User": `name=${user}&displayName=${displayName}&provider=twitch&providerId=1&userLevel=${userLevel}`,
  "Nightbot-Channel": "name=cuebotdemo&displayName=CuebotDemo&provider=twitch&providerId=100001",
});

export interface ConsentRoundTrip {
  /** The scopes cuebot asked Twitch for. */
  asked: string[];
  /** The callback's answer. */
  done: Response;
}

/**
 * A re-consent (`/auth/login?consent=<kind>`, the dashboard's `consentUrl`) through the simulated
 * Twitch, approved by `as` (who is signed in to twitch.tv in that browser), in this browser: with
 * the session cookie unless `session` is false, and the login attempt's own cookies.
 */
export async function consentAs(
  h: BotHarness,
  kind: Consent,
  as: string,
  options: { session?: boolean; accept?: string } = {},
): Promise<ConsentRoundTrip> {
  h.sim.knobs.autoApproveAs = as;
  const session = options.session === false ? [] : [h.cookie];
  const start = await h.request(`/auth/login?consent=${kind}`, { headers: { cookie: session.join("; ") } });
  if (start.status !== 302) throw new Error(`the consent did not start: ${start.status}`);
  const authorize = new URL(start.headers.get("location")!);
  const atProvider = await fetch(authorize, { redirect: "manual" });
  const callback = new URL(atProvider.headers.get("location")!);
  const cookie = [cookieHeader(start.headers.getSetCookie()), ...session].join("; ");
  const done = await h.request(`${callback.pathname}${callback.search}`, {
    headers: { cookie, ...(options.accept ? { accept: options.accept } : {}) },
  });
  return { asked: authorize.searchParams.get("scope")!.split(" "), done };
}
