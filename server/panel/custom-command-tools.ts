import { Elysia, t } from "elysia";
import type { Account } from "../../db/accounts.ts";
import { checkLine, checkLogin, checkText, checkUserLevel } from "../../db/chat-bot-rules.ts";
import { type CustomCommand, getCustomCommand } from "../../db/custom-commands.ts";
import type { UserLevel } from "../../db/schema-enums.ts";
import { admits } from "../custom/levels.ts";
import { variableResolvers } from "../custom/resolvers.ts";
import { expandResponse, usesCount } from "../custom/variables.ts";
import { IMPORT_BODY_BYTES } from "../http/body-limit.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import type { Context } from "../runtime.ts";
import { bodyObject, fieldError, panelDetail, refusalsAnswered, textField } from "./chat-bot-input.ts";
import { IMPORT_EXAMPLE, importPlan, importRequestOf, storeImport } from "./custom-command-import.ts";
import { commandNameParam, noSuchCommand } from "./custom-command-names.ts";

/**
 * The custom commands' tools on the dashboard (issue 24): a live preview of a response, and the import
 * of a Nightbot or StreamElements list (custom-command-import.ts), planned first and stored only when
 * asked, all of it or nothing.
 */

/** What a chatter's words after the trigger may be in a preview: one chat line. */
const MAX_ARGS_LENGTH = 500;
/** As native chat reads them (chat/triggers.ts): at most 20 words of at most 100 characters. */
const MAX_ARGS = 20;
const MAX_ARG_LENGTH = 100;

const TEST_EXAMPLE =
  '{"response": "Hi $(touser)!", "user": "viewer_anna", "level": "everyone", "args": "@bob"}';

interface PreviewRequest {
  response: string;
  /** The command's level: the body's, else the stored command's, else everyone. */
  userLevel: UserLevel;
  user: string;
  level: UserLevel;
  args: string[];
  /** The stored command previewed, if any: its count is what `$(count)` starts from. */
  stored: CustomCommand | undefined;
}

/** The words after the trigger as chat would read them. */
function argsOf(typed: string | undefined): string[] {
  if (typed === undefined || typed.trim() === "") return [];
  const line = checkLine(typed, "args", "The arguments", MAX_ARGS_LENGTH);
  return line
    .split(/\s+/u)
    .slice(0, MAX_ARGS)
    .map((word) => word.slice(0, MAX_ARG_LENGTH));
}

async function previewRequestOf(ctx: Context, account: Account, body: unknown): Promise<PreviewRequest> {
  const fields = bodyObject(body, ["name", "response", "userLevel", "user", "level", "args"], TEST_EXAMPLE);
  const nameField = textField(fields, "name");
  const name = nameField === undefined ? undefined : commandNameOf(nameField);
  const stored = name === undefined ? undefined : await getCustomCommand(ctx.db, account.id, name);
  if (name !== undefined && !stored) throw noSuchCommand(name);
  const response = textField(fields, "response") ?? stored?.response;
  if (response === undefined)
    throw fieldError("body field", "response", "is missing (or name a stored command).");
  const userLevel = textField(fields, "userLevel");
  return await refusalsAnswered(async () => ({
    response: checkText(response, "response", "The response"),
    userLevel: userLevel === undefined ? (stored?.userLevel ?? "everyone") : checkUserLevel(userLevel),
    user: checkLogin(textField(fields, "user") ?? account.login, "user"),
    level: checkUserLevel(textField(fields, "level") ?? "owner", "level"),
    args: argsOf(textField(fields, "args")),
    stored,
  }));
}

/** A name in a body, read like a path's (a 400 naming `name` when it cannot be one). */
function commandNameOf(typed: string): string {
  try {
    return commandNameParam(typed);
  } catch {
    throw fieldError("body field", "name", "must be a command name: 1 to 32 letters a–z, digits or _.");
  }
}

/** The reply chat would post for this viewer, without storing or counting anything. */
async function preview(ctx: Context, account: Account, request: PreviewRequest) {
  const countsUse = usesCount(request.response);
  const count = (request.stored?.count ?? 0) + (countsUse ? 1 : 0);
  if (!admits(request.userLevel, request.level)) {
    return {
      answered: false,
      text: null,
      reason: `A ${request.level} is below this command's level (${request.userLevel}): chat gives no reply.`,
      countsUse,
      count,
    };
  }
  const text = await expandResponse(request.response, {
    caller: {
      login: request.user,
      displayName: request.user === account.login ? account.displayName : request.user,
    },
    channel: account.displayName,
    args: request.args,
    count,
    random: ctx.random,
    clock: ctx.clock,
    // What chat would show: Twitch and the game API as native chat asks them; a failure shows its placeholder.
    resolvers: variableResolvers(ctx, account),
  });
  return {
    answered: text !== "",
    text,
    reason: text === "" ? "The reply is empty: chat posts nothing." : null,
    countsUse,
    count,
  };
}

/** The preview and the import. */
export function customCommandToolRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-custom-command-tools", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .post(
      "/custom-commands/test",
      async ({ principal: { account }, body }) => ({
        status: 200 as const,
        data: await preview(ctx, account, await previewRequestOf(ctx, account, body)),
      }),
      {
        body: t.Unknown({ description: TEST_EXAMPLE }),
        detail: panelDetail(
          "Preview a response as chat would answer it, for a chosen viewer and level; nothing is stored or counted",
          "Fields: `response` (unsaved text) and/or `name` (a stored command: its response, level and count), `userLevel` (the command's), `user` (the viewer's login, default you), `level` (the viewer's, default owner), `args` (what the viewer types after the trigger). `data: {answered, text, reason, countsUse, count}`. Variables that need Twitch or the game API are asked as chat asks them; one that fails shows `(uptime unavailable)` and the like.",
        ),
      },
    )
    .post(
      "/custom-commands/import",
      async ({ principal: { account }, body }) => {
        const request = importRequestOf(body);
        const plan = await importPlan(ctx, account, request);
        if (!request.apply) return { status: 200 as const, data: { ...plan, applied: false } };
        const { add: _planned, ...notes } = plan;
        const stored = await storeImport(ctx, account, plan.add);
        ctx.chatBot.clear();
        return { status: 200 as const, data: { ...notes, applied: true, stored } };
      },
      {
        body: t.Unknown({ description: IMPORT_EXAMPLE }),
        detail: panelDetail(
          "Import a Nightbot or StreamElements command list: the plan first, then (apply: true) the commands stored",
          "`body` is the list as the bot's API returns it (Nightbot `GET /1/commands`: `{commands: […]}`; StreamElements `GET /bot/commands/{channel}`: `[…]`), or as text Nightbot's command table as a browser copies it from `https://nightbot.tv/t/<login>/commands` (tab-separated rows; the header row Command, Message, Userlevel, Cooldown names the columns); `format` is nightbot, streamelements or detect (default). Without `apply` (or false) nothing is stored: `data: {format, add, adjusted, conflicts, unsupported, applied: false}`. With `apply: true` the `add` list is stored in one transaction, all or nothing, and `data.stored` lists the commands as stored. Existing and built-in commands are never replaced." +
            ` The body may be up to ${IMPORT_BODY_BYTES / 1024 / 1024} MiB (other routes: 64 KiB); a larger one is 413 \`payload_too_large\`.`,
        ),
      },
    );
}
