import { Elysia } from "elysia";
import { type ApiKeyPrincipal, authenticateBot } from "../http/auth.ts";
import { syncHook } from "../http/sync-hook.ts";
import type { Context } from "../runtime.ts";
import type { CommandName } from "./catalog.ts";
import { executeCommand } from "./commands.ts";
import { commandInputOf } from "./routes-input.ts";

const TEXT_NOTE = "Add format=text for one chat line (automatic for Nightbot and Fossabot).";
const SECURITY: Record<string, string[]>[] = [{ apiKeyQuery: [] }, { apiKeyHeader: [] }];

const doc = (summary: string, parameters: { name: string; description: string }[] = []) => ({
  summary,
  description: TEXT_NOTE,
  tags: ["bot"],
  security: SECURITY,
  parameters: parameters.map((p) => ({
    in: "query" as const,
    name: p.name,
    description: p.description,
    required: false,
    schema: { type: "string" as const },
  })),
});

/**
 * Chat-bot endpoints (API key; bot quota). Each answers `{status, data: {…, text}}`, or the chat line
 * itself in text mode.
 */
export function botRoutes(ctx: Context) {
  const run =
    (command: CommandName) =>
    ({ request, principal }: { request: Request; principal: ApiKeyPrincipal }) =>
      executeCommand(ctx, principal.account, command, commandInputOf(request, command));
  return (
    new Elysia({ name: "cuebot.bot" })
      // Returns the principal, or a promise of it with shared limits: Elysia awaits a derive that reads
      // `=> f(` (its source-text rule), so keep this an arrow returning the call.
      .derive(({ request, set }) => authenticateBot(ctx, request, set))
      // No route here validates a schema, so this runs straight after the derive.
      .onBeforeHandle(syncHook(({ refusal }) => refusal))
      .get("/api/followage", run("followage"), {
        detail: doc("How long a viewer has followed the channel", [
          { name: "channel", description: "the key owner's channel (falls back to Nightbot-Channel)" },
          { name: "user", description: "the viewer (falls back to Nightbot-User)" },
          { name: "precision", description: "how many non-zero units the text shows, 1–7 (default 2)" },
        ]),
      })
      .get("/api/bot/shoutout", run("shoutout"), {
        detail: doc("Shoutout: the channel's name, last category and link", [
          { name: "user", description: "who to shout out" },
        ]),
      })
      .get("/api/bot/magic8", run("magic8"), {
        detail: doc("Magic 8-ball answer (answers configurable per channel)", [
          { name: "question", description: "optional" },
        ]),
      })
      .get("/api/bot/clip", run("clip"), { detail: doc("Clip the live stream; answers the clip link") })
      .get("/api/bot/roulette", run("roulette"), {
        detail: doc("Roulette: the loser is timed out (never the broadcaster, moderators or VIPs)", [
          { name: "user", description: "who pulls the trigger (falls back to Nightbot-User)" },
          { name: "target", description: "`random` to let the gun pick someone from chat" },
        ]),
      })
      .get("/api/bot/pick", run("pick"), { detail: doc("Pick a random viewer from chat") })
      .get("/api/bot/dice", run("dice"), {
        detail: doc("Roll dice", [
          { name: "sides", description: "2–1000 (default 6)" },
          { name: "count", description: "1–10 (default 1)" },
        ]),
      })
      .get("/api/bot/coinflip", run("coinflip"), { detail: doc("Flip a coin") })
  );
}
