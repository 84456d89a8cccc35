import { Elysia, t } from "elysia";
import { CHAT_BOT_LIMITS } from "../../db/chat-bot-rules.ts";
import { addTimer, deleteTimer, editTimer, listTimers, type TimerChanges } from "../../db/timers.ts";
import { ApiError } from "../core/errors.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import type { Context } from "../runtime.ts";
import {
  bodyObject,
  booleanField,
  FIELD_HEADER,
  integerField,
  type JsonObject,
  panelDetail,
  refusalsAnswered,
  rowNumberParam,
  textField,
} from "./chat-bot-input.ts";

/**
 * The dashboard's timers (issue 24; Nightbot's timers): a message posted every 5–60 minutes while
 * the channel is live, once at least `minChatLines` chat lines were written since the last post.
 * db/timers.ts checks every value; posting them is native chat's part, told of every change here
 * (`ctx.chatBot.timersChanged`) so its cache never posts a disabled, deleted or old timer.
 */

const FIELDS = ["name", "message", "intervalMinutes", "minChatLines", "enabled"] as const;
const ADD_EXAMPLE = '{"name": "socials", "message": "Follow on X: @example", "intervalMinutes": 15}';
const EDIT_EXAMPLE = '{"enabled": false}';

const noSuchTimer = (id: number) =>
  new ApiError(404, "not_found", `There is no timer with id ${id}.`, { [FIELD_HEADER]: "id" });

/** The fields a body names; what it leaves out stays undefined (an edit keeps it, an add defaults it). */
function timerFieldsOf(body: JsonObject): TimerChanges {
  const changes: TimerChanges = {};
  const name = textField(body, "name");
  const message = textField(body, "message");
  const intervalMinutes = integerField(body, "intervalMinutes");
  const minChatLines = integerField(body, "minChatLines");
  const enabled = booleanField(body, "enabled");
  if (name !== undefined) changes.name = name;
  if (message !== undefined) changes.message = message;
  if (intervalMinutes !== undefined) changes.intervalMinutes = intervalMinutes;
  if (minChatLines !== undefined) changes.minChatLines = minChatLines;
  if (enabled !== undefined) changes.enabled = enabled;
  return changes;
}

const FIELD_DOCS = `Fields: \`name\` (1–${CHAT_BOT_LIMITS.timerNameLength} characters, unique), \`message\` (≤ ${CHAT_BOT_LIMITS.textLength} characters, one line), \`intervalMinutes\` (${CHAT_BOT_LIMITS.intervalMinutes.min}–${CHAT_BOT_LIMITS.intervalMinutes.max}), \`minChatLines\` (${CHAT_BOT_LIMITS.minChatLines.min}–${CHAT_BOT_LIMITS.minChatLines.max}, default ${CHAT_BOT_LIMITS.minChatLines.default}), \`enabled\` (default true).`;

export function timerRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-timers", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .get(
      "/timers",
      async ({ principal: { account } }) => ({
        status: 200 as const,
        data: { items: await listTimers(ctx.db, account.id), limit: CHAT_BOT_LIMITS.timersPerAccount },
      }),
      {
        detail: panelDetail(
          "This channel's timers, in the order they were added",
          "`data: {items: [{id, name, message, intervalMinutes, minChatLines, enabled, lastPostedAt, createdAt, updatedAt}], limit}`.",
        ),
      },
    )
    .post(
      "/timers",
      async ({ principal: { account }, body }) => {
        const fields = bodyObject(body, FIELDS, ADD_EXAMPLE);
        const timer = {
          ...timerFieldsOf(fields),
          name: textField(fields, "name", true),
          message: textField(fields, "message", true),
          intervalMinutes: integerField(fields, "intervalMinutes", true)!,
        };
        const added = await refusalsAnswered(() => addTimer(ctx.db, account.id, timer, ctx.clock.now()));
        ctx.chatBot.timersChanged(account.id);
        return { status: 200 as const, data: added };
      },
      {
        body: t.Unknown({ description: ADD_EXAMPLE }),
        detail: panelDetail(
          "Add a timer",
          `${FIELD_DOCS} At most ${CHAT_BOT_LIMITS.timersPerAccount} timers.`,
        ),
      },
    )
    .put(
      "/timers/:id",
      async ({ principal: { account }, params, body }) => {
        const id = rowNumberParam(params.id, "id");
        const changes = timerFieldsOf(bodyObject(body, FIELDS, EDIT_EXAMPLE));
        const timer = await refusalsAnswered(() =>
          editTimer(ctx.db, account.id, id, changes, ctx.clock.now()),
        );
        if (!timer) throw noSuchTimer(id);
        ctx.chatBot.timersChanged(account.id);
        return { status: 200 as const, data: timer };
      },
      {
        body: t.Unknown({ description: EDIT_EXAMPLE }),
        detail: panelDetail("Edit a timer: the fields given change, the others stay", FIELD_DOCS),
      },
    )
    .delete(
      "/timers/:id",
      async ({ principal: { account }, params }) => {
        const id = rowNumberParam(params.id, "id");
        if (!(await deleteTimer(ctx.db, account.id, id))) throw noSuchTimer(id);
        ctx.chatBot.timersChanged(account.id);
        return { status: 200 as const, data: { id, deleted: true } };
      },
      { detail: panelDetail("Delete a timer") },
    );
}
