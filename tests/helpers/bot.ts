import { type Account, findAccountByLogin } from "../../db/accounts.ts";
import { revealCredential } from "../../db/credentials.ts";
import type { TestContextOptions } from "./context.ts";
import { type IdentityHarness, startIdentityHarness } from "./twitch.ts";

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
