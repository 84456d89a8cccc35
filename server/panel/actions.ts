import { Elysia, t } from "elysia";
import { parseActionInput } from "../actions/input.ts";
import type { Action, ActionInput } from "../actions/model.ts";
import { refuseTakenCommand } from "../actions/names.ts";
import { createAction, deleteAction, listActions, replaceAction } from "../actions/store.ts";
import { ApiError, badRequest } from "../core/errors.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import type { Context } from "../runtime.ts";
import { ACTION_LIMITS, USER_LEVELS } from "../vocabulary.ts";
import { FIELD_HEADER, panelDetail, refusalsAnswered, rowNumberParam } from "./chat-bot-input.ts";

/**
 * The dashboard's actions (issue 37; CONTRACT §6 "Actions"): list, add, replace whole and delete.
 * Every field is checked (actions/input.ts) and a command trigger's name too (actions/names.ts)
 * before anything is stored; scenes and sources are not checked against OBS (it may be off). Running
 * one and its run log have routes of their own.
 */

const EXAMPLE =
  '{"name": "BRB", "enabled": true, "cooldownSeconds": 10, "trigger": {"type": "command", "command": "brb", "level": "moderator"}, "steps": [{"type": "obs.scene", "scene": "BRB"}]}';

export const noSuchAction = (id: number) =>
  new ApiError(404, "not_found", `There is no action with id ${id}.`, { [FIELD_HEADER]: "id" });

/** An action as the routes answer it: `lastRun.at` as an ISO 8601 instant. */
export function actionAnswer(action: Action) {
  const { lastRun } = action;
  return { ...action, lastRun: lastRun && { ...lastRun, at: new Date(lastRun.at).toISOString() } };
}

/** The body as an action, its command free: refused (400 naming the field) before anything is stored. */
async function checkedInput(ctx: Context, accountId: number, body: unknown): Promise<ActionInput> {
  return await refusalsAnswered(async () => {
    const input = parseActionInput(body);
    await refuseTakenCommand(ctx, accountId, input);
    return input;
  });
}

const full = () =>
  badRequest(
    `An account keeps at most ${ACTION_LIMITS.perAccount} actions; delete one before adding another.`,
  );

const L = ACTION_LIMITS;
const FIELD_DOCS = `Fields: \`name\` (1–${L.nameLength} characters), \`enabled\` (default true), \`cooldownSeconds\` (${L.cooldownSeconds.min}–${L.cooldownSeconds.max}, default 0), \`trigger\` and \`steps\` (1–${L.steps}). Triggers: \`{"type": "command", "command": "brb", "level"}\` (level one of ${USER_LEVELS.join(", ")}, default everyone; not a built-in command's name or alias, on or off, nor a custom command's), \`{"type": "alert", "kind", "min", "reward"}\` (kind follow, sub, resub, gift, cheer, raid or redemption; \`min\` a whole number, default 0; \`reward\` a redemption's reward title, ≤ ${L.rewardLength} characters), \`{"type": "stream", "state": "online" | "offline"}\`, \`{"type": "button"}\`. Steps: \`obs.scene\` {scene}, \`obs.source\` {scene, source, visible, seconds?} (seconds ≤ ${L.sourceSeconds}: back as it was after that long), \`obs.text\` {source, text} (≤ ${L.textLength} characters), \`obs.media\` {source, action: restart | stop}, \`chat\` {text} (one line, ≤ ${L.textLength} characters), \`wait\` {seconds} (≤ ${L.waitSeconds}). OBS names are 1–${L.obsNameLength} characters, not checked against OBS. In texts, {user}, {amount}, {reward} and {message} come from the event. A bad or unknown field → 400 \`bad_request\` naming its path (\`steps[2].seconds\`), nothing stored.`;

const ACTION_DATA =
  "`data: {id, name, enabled, cooldownSeconds, trigger, steps, lastRun}`; `lastRun` `{at, ok, error}` (error null after a success) or null.";

export function actionPanelRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-actions", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .get(
      "/actions",
      async ({ principal: { account } }) => ({
        status: 200 as const,
        data: { items: (await listActions(ctx.db, account.id)).map(actionAnswer), limit: L.perAccount },
      }),
      {
        detail: panelDetail(
          "This channel's actions, in the order they were added",
          `\`data: {items: [{id, name, enabled, cooldownSeconds, trigger, steps, lastRun}], limit}\`; \`lastRun\` \`{at, ok, error}\` or null. At most ${L.perAccount} actions.`,
        ),
      },
    )
    .post(
      "/actions",
      async ({ principal: { account }, body }) => {
        const input = await checkedInput(ctx, account.id, body);
        const added = await createAction(ctx.db, account.id, input, ctx.clock.now());
        if (!added) throw full();
        ctx.actions.changed(account.id);
        return { status: 200 as const, data: actionAnswer(added) };
      },
      {
        body: t.Unknown({ description: EXAMPLE }),
        detail: panelDetail("Add an action", `${FIELD_DOCS} At most ${L.perAccount} actions. ${ACTION_DATA}`),
      },
    )
    .put(
      "/actions/:id",
      async ({ principal: { account }, params, body }) => {
        const id = rowNumberParam(params.id, "id");
        const input = await checkedInput(ctx, account.id, body);
        const replaced = await replaceAction(ctx.db, account.id, id, input, ctx.clock.now());
        if (!replaced) throw noSuchAction(id);
        ctx.actions.changed(account.id);
        return { status: 200 as const, data: actionAnswer(replaced) };
      },
      {
        body: t.Unknown({ description: EXAMPLE }),
        detail: panelDetail(
          "Replace an action whole (its last run and run log stay)",
          `${FIELD_DOCS} Another account's id or none → 404 \`not_found\`. ${ACTION_DATA}`,
        ),
      },
    )
    .delete(
      "/actions/:id",
      async ({ principal: { account }, params }) => {
        const id = rowNumberParam(params.id, "id");
        if (!(await deleteAction(ctx.db, account.id, id))) throw noSuchAction(id);
        ctx.actions.changed(account.id);
        return { status: 200 as const, data: { id, deleted: true } };
      },
      { detail: panelDetail("Delete an action and its run log", "`data: {id, deleted: true}`.") },
    );
}
