import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { writeChatEnabled, writeChatState } from "../../db/chat.ts";
import { loadConfig } from "../../server/core/config.ts";
import { createLogger } from "../../server/core/log.ts";
import { saveProviderTokens } from "../../server/identity/provider-tokens.ts";
import { openContext } from "../../server/runtime.ts";
import { BASE_SCOPES } from "../../server/twitch/scopes.ts";
import { initDataDir, Scratch, seedAccount } from "../helpers/cli.ts";

const scratch = new Scratch();
let cwd: string;
let dataDir: string;
beforeEach(async () => {
  cwd = scratch.dir();
  dataDir = await initDataDir(cwd);
});
afterEach(() => scratch.cleanup());

const cuebot = (...args: string[]) => scratch.run([...args, "--data-dir", dataDir], { cwd });

/** What a running server leaves in the database for two streamers with chat on, one off. */
async function seedChat(): Promise<void> {
  const ids: number[] = [];
  for (const login of ["alice", "bob", "carol"]) ids.push((await seedAccount(dataDir, login)).account.id);
  const ctx = await openContext(loadConfig({ dataDir, env: {} }), {
    log: createLogger({ level: "error", format: "json", write: () => {} }),
  });
  try {
    const at = Date.UTC(2026, 10, 24, 20, 15, 0);
    for (const id of ids.slice(0, 2)) {
      await saveProviderTokens(ctx, id, {
        accessToken: `a${id}`,
        refreshToken: `r${id}`,
        scopes: [...BASE_SCOPES, ...(id === ids[0] ? ["user:read:chat"] : [])],
        expiresIn: 3600,
      });
      await writeChatEnabled(ctx.db, id, true, at);
    }
    await writeChatState(ctx.db, ids[0]!, "connected", null, at);
  } finally {
    await ctx.close();
  }
}

describe("cuebot chat list", () => {
  test("lists the accounts with chat on, their state and who speaks; a missing consent shows why", async () => {
    await seedChat();
    const result = await cuebot("chat", "list");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        "LOGIN  STATE          SINCE                SPEAKS AS  REASON",
        "alice  connected      2026-11-24 20:15:00  alice",
        "bob    needs_consent                       bob        cuebot needs your permission to read chat (user:read:chat).",
        "",
      ].join("\n"),
    );
    const json = JSON.parse((await cuebot("chat", "list", "--json")).stdout) as {
      login: string;
      state: string;
    }[];
    expect(json.map((r) => [r.login, r.state])).toEqual([
      ["alice", "connected"],
      ["bob", "needs_consent"],
    ]);
  });

  test("no account with chat on: says how to turn it on", async () => {
    await seedAccount(dataDir, "alice");
    expect(await cuebot("chat", "list")).toEqual({
      code: 0,
      stdout: "No account has native chat turned on (dashboard → Chat).\n",
      stderr: "",
    });
    expect(JSON.parse((await cuebot("chat", "list", "--json")).stdout)).toEqual([]);
  });
});
