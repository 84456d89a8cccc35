import { Elysia, t } from "elysia";
import { CHAT_BOT_LIMITS, parseCommandName } from "../../db/chat-bot-rules.ts";
import {
  addCustomCommand,
  type CustomCommandChanges,
  deleteCustomCommand,
  editCustomCommand,
  getCustomCommand,
  listCustomCommands,
  type NewCustomCommand,
  setCommandCount,
} from "../../db/custom-commands.ts";
import { DEFAULT_COOLDOWN_SECONDS } from "../custom/changes.ts";
import { ALIAS_PASS_THROUGH } from "../custom/management.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import type { Context } from "../runtime.ts";
import {
  bodyObject,
  fieldError,
  integerField,
  type JsonObject,
  nullableTextField,
  panelDetail,
  refusalsAnswered,
  textField,
} from "./chat-bot-input.ts";
import { commandNameParam, noSuchCommand, refuseCuebotNames } from "./custom-command-names.ts";

/**
 * The dashboard's custom commands (issue 24; CONTRACT §6 "Custom commands and quotes"): the same
 * commands moderators manage from chat with `!commands add|edit|delete`, kept by
 * db/custom-commands.ts, which checks every value again. `GET /commands` stays the built-ins only.
 * Every change of a definition clears what chat keeps in memory (`ctx.chatBot`); a count is read
 * from the store on each use. The live preview and the import are in custom-command-tools.ts.
 */

const OPTION_FIELDS = [
  "response",
  "userLevel",
  "cooldownSeconds",
  "userCooldownSeconds",
  "aliasTarget",
  "count",
] as const;
const ADD_EXAMPLE = '{"name": "!discord", "response": "Join us at discord.gg/example"}';
const EDIT_EXAMPLE = '{"response": "New text", "cooldownSeconds": 30}';

/** The options a body names; what it leaves out stays undefined (an edit keeps it). */
function optionsOf(body: JsonObject): CustomCommandChanges {
  const changes: CustomCommandChanges = {};
  const response = textField(body, "response");
  const userLevel = textField(body, "userLevel");
  const cooldownSeconds = integerField(body, "cooldownSeconds");
  const userCooldownSeconds = integerField(body, "userCooldownSeconds");
  const aliasTarget = nullableTextField(body, "aliasTarget");
  const count = integerField(body, "count");
  if (response !== undefined) changes.response = response;
  if (userLevel !== undefined) changes.userLevel = userLevel;
  if (cooldownSeconds !== undefined) changes.cooldownSeconds = cooldownSeconds;
  if (userCooldownSeconds !== undefined) changes.userCooldownSeconds = userCooldownSeconds;
  if (aliasTarget !== undefined) changes.aliasTarget = aliasTarget;
  if (count !== undefined) changes.count = count;
  return changes;
}

/**
 * A new command: Nightbot's defaults where the body names none (a 30 s cooldown, as from chat). An
 * alias given without a response hands the caller's words on, as one added from chat does.
 */
function newCommandOf(body: unknown): NewCustomCommand {
  const fields = bodyObject(body, ["name", ...OPTION_FIELDS], ADD_EXAMPLE);
  const name = textField(fields, "name", true);
  const options = optionsOf(fields);
  const passThrough = options.aliasTarget ? ALIAS_PASS_THROUGH : undefined;
  const response = options.response ?? passThrough ?? textField(fields, "response", true);
  return { cooldownSeconds: DEFAULT_COOLDOWN_SECONDS, ...options, name, response };
}

/**
 * An edit that clears an alias without a response of its own, when the stored response is only the
 * pass-through an alias is given (`$(query)`): refused naming `response`, or the command would echo
 * whatever the chatter types. (Chat cannot clear an alias: `-a=` always names a command.)
 */
async function refuseBareUnaliasing(
  ctx: Context,
  accountId: number,
  name: string,
  changes: CustomCommandChanges,
): Promise<void> {
  if (changes.aliasTarget !== null || changes.response !== undefined) return;
  const stored = await getCustomCommand(ctx.db, accountId, name);
  if (stored?.aliasTarget != null && stored.response === ALIAS_PASS_THROUGH) {
    throw fieldError(
      "body field",
      "response",
      "is needed: without its alias the command would repeat what the chatter types; give the command its own response.",
    );
  }
}

/** Custom commands on the dashboard: list, add, edit, delete, set a counter. */
export function customCommandRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-custom-commands", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .get(
      "/custom-commands",
      async ({ principal: { account } }) => ({
        status: 200 as const,
        data: {
          items: await listCustomCommands(ctx.db, account.id),
          limit: CHAT_BOT_LIMITS.customCommandsPerAccount,
        },
      }),
      {
        detail: panelDetail(
          "This channel's custom commands, by name, each with its count",
          "`data: {items: [{name, response, userLevel, cooldownSeconds, userCooldownSeconds, aliasTarget, count, createdAt, updatedAt}], limit}`.",
        ),
      },
    )
    .post(
      "/custom-commands",
      async ({ principal: { account }, body }) => {
        const command = newCommandOf(body);
        const name = parseCommandName(command.name);
        // A name that cannot be one is the store's to refuse, with its field.
        if (name !== null) await refuseCuebotNames(ctx, account.id, name);
        const added = await refusalsAnswered(() =>
          addCustomCommand(ctx.db, account.id, command, ctx.clock.now()),
        );
        ctx.chatBot.clear();
        return { status: 200 as const, data: added };
      },
      {
        body: t.Unknown({ description: ADD_EXAMPLE }),
        detail: panelDetail(
          "Add a custom command",
          "Fields: `name` (`!discord` or `discord`), `response` (≤ 500 characters, Nightbot's variables; an alias without one passes the caller's words on), optional `userLevel` (everyone, subscriber, regular, twitch_vip, moderator, owner), `cooldownSeconds` (0 or 5–300, default 30: once the command answers, nobody below moderator gets an answer until it passes), `userCooldownSeconds` (0 or 5–300, default 0: once the command answers a chatter, that chatter gets no answer from it until it passes; moderators and the broadcaster exempt; the global cooldown still holds for everyone else), `aliasTarget` (another command's name, or null), `count`. A name taken by a built-in command that is on is refused (409 `builtin_command`), a taken name with 409 `already_exists`.",
        ),
      },
    )
    .put(
      "/custom-commands/:name",
      async ({ principal: { account }, params, body }) => {
        const name = commandNameParam(params.name);
        const changes = optionsOf(bodyObject(body, OPTION_FIELDS, EDIT_EXAMPLE));
        await refuseBareUnaliasing(ctx, account.id, name, changes);
        const edited = await refusalsAnswered(() =>
          editCustomCommand(ctx.db, account.id, name, changes, ctx.clock.now()),
        );
        if (!edited) throw noSuchCommand(name);
        ctx.chatBot.clear();
        return { status: 200 as const, data: edited };
      },
      {
        body: t.Unknown({ description: EDIT_EXAMPLE }),
        detail: panelDetail(
          "Edit a custom command: the fields given change, the others stay",
          "Fields as for adding, without `name`.",
        ),
      },
    )
    .delete(
      "/custom-commands/:name",
      async ({ principal: { account }, params }) => {
        const name = commandNameParam(params.name);
        if (!(await deleteCustomCommand(ctx.db, account.id, name))) throw noSuchCommand(name);
        ctx.chatBot.clear();
        return { status: 200 as const, data: { name, deleted: true } };
      },
      { detail: panelDetail("Delete a custom command") },
    )
    .put(
      "/custom-commands/:name/count",
      async ({ principal: { account }, params, body }) => {
        const name = commandNameParam(params.name);
        const fields = bodyObject(body, ["count"], '{"count": 12}');
        const value = integerField(fields, "count", true)!;
        const count = await refusalsAnswered(() => setCommandCount(ctx.db, account.id, name, value));
        if (count === undefined) throw noSuchCommand(name);
        return { status: 200 as const, data: { name, count } };
      },
      {
        body: t.Unknown({ description: '{"count": 12}' }),
        detail: panelDetail("Set a custom command's counter (what `$(count)` shows next, minus one)"),
      },
    );
}
