import { Elysia } from "elysia";
import { type ApiKeyContext, type ApiKeyPrincipal, authenticateBot } from "../http/auth.ts";
import { syncHook } from "../http/sync-hook.ts";
import { TEST_CALL_HEADER } from "../vocabulary.ts";
import { COMMAND_DEFINITIONS, type CommandName } from "./catalog.ts";
import { executeCommand } from "./commands.ts";
import type { CommandContext } from "./context.ts";
import type { CommandDefinition } from "./definition.ts";
import { commandInputOf } from "./routes-input.ts";

const TEXT_NOTE = "Add format=text for one chat line (automatic for Nightbot and Fossabot).";
const SECURITY: Record<string, string[]>[] = [{ apiKeyQuery: [] }, { apiKeyHeader: [] }];

/** A command's `/docs` entry: its route's summary and the query parameters its definition describes. */
const doc = (summary: string, inputs: CommandDefinition["inputs"]) => ({
  summary,
  description: TEXT_NOTE,
  tags: ["bot"],
  security: SECURITY,
  parameters: Object.entries(inputs).map(([name, description]) => ({
    in: "query" as const,
    name,
    description,
    required: false,
    schema: { type: "string" as const },
  })),
});

/** A call Bot setup's "Test this line" made: recorded as a test (bot/runner.ts). */
const LINE_TEST = { test: "line" } as const;

/**
 * Chat-bot endpoints (API key; bot quota), one per registered command with a route (bot/catalog.ts).
 * Each answers `{status, data: {…, text}}`, or the chat line itself in text mode.
 */
export function botRoutes(ctx: ApiKeyContext & CommandContext) {
  const run =
    (command: CommandName) =>
    ({ request, principal }: { request: Request; principal: ApiKeyPrincipal }) =>
      executeCommand(
        ctx,
        principal.account,
        command,
        commandInputOf(request, command),
        request.headers.get(TEST_CALL_HEADER) === "1" ? LINE_TEST : undefined,
      );
  const app = new Elysia({ name: "cuebot.bot" })
    // Returns the principal, or a promise of it with shared limits: Elysia awaits a derive that reads
    // `=> f(` (its source-text rule), so keep this an arrow returning the call.
    .derive(({ request, set }) => authenticateBot(ctx, request, set))
    // No route here validates a schema, so this runs straight after the derive.
    .onBeforeHandle(syncHook(({ refusal }) => refusal));
  for (const { name, route, inputs } of COMMAND_DEFINITIONS) {
    if (route) app.get(route.path, run(name), { detail: doc(route.summary, inputs) });
  }
  return app;
}
