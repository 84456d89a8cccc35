import { Elysia } from "elysia";
import type { Account } from "../../db/accounts.ts";
import type { RunOutcome } from "../actions/handle.ts";
import type { ActionRun, RunCause } from "../actions/model.ts";
import { listActionRuns, readAction } from "../actions/store.ts";
import { ApiError } from "../core/errors.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import { NoAnswer } from "../redis/request-channel.ts";
import type { Context } from "../runtime.ts";
import { ACTION_LIMITS } from "../vocabulary.ts";
import { noSuchAction } from "./actions.ts";
import { panelDetail, rowNumberParam } from "./chat-bot-input.ts";

/*
 * An action run now (the dashboard's button, the deck) and its run log (CONTRACT §6 "Actions"). The
 * run goes through `ctx.actions`, on the instance holding the account's OBS connection and chat;
 * the answer comes when its steps have run (a timed source goes back after it).
 */

const busy = () =>
  new ApiError(409, "busy", "The action is running or cooling down; nothing was run. Try again shortly.");

function answered(outcome: RunOutcome, id: number) {
  if (outcome.kind === "missing") throw noSuchAction(id);
  if (outcome.kind === "busy") throw busy();
  return outcome.answer;
}

const unanswered = () =>
  new ApiError(
    502,
    "upstream_error",
    "The cuebot instance holding the OBS connection did not answer in time; the run log will show what ran.",
  );

const runView = (run: ActionRun) => ({ ...run, at: new Date(run.at).toISOString() });

async function runNow(ctx: Context, account: Account, id: number) {
  const cause: RunCause = {
    trigger: "button",
    user: account.displayName,
    amount: null,
    reward: null,
    message: null,
  };
  try {
    return answered(await ctx.actions.run({ accountId: account.id, actionId: id, cause }), id);
  } catch (error) {
    if (error instanceof NoAnswer) throw unanswered();
    throw error;
  }
}

const RUN_DATA =
  "`data: {ok, steps: [{type, ok, error}]}`: the steps that ran, in order, a failed one last with its error (a scene or source OBS does not have, OBS not connected, chat not connected). `{user}` is the streamer. 409 `busy` while the action runs or cools down: nothing runs.";
const RUNS_DATA =
  "`data: {items: [{actionId, at, ok, cause, user, steps}]}`: the action's last runs, newest first; `cause` is what set it off (button, command, alert, stream).";

export function actionRunRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-action-runs", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .post(
      "/actions/:id/run",
      async ({ principal: { account }, params }) => ({
        status: 200 as const,
        data: await runNow(ctx, account, rowNumberParam(params.id, "id")),
      }),
      { detail: panelDetail("Run an action now and answer what each step did", RUN_DATA) },
    )
    .get(
      "/actions/:id/runs",
      async ({ principal: { account }, params }) => {
        const id = rowNumberParam(params.id, "id");
        if (!(await readAction(ctx.db, account.id, id))) throw noSuchAction(id);
        const runs = await listActionRuns(ctx.db, account.id, id, ACTION_LIMITS.runsKept);
        return { status: 200 as const, data: { items: runs.map(runView) } };
      },
      { detail: panelDetail("An action's run log, newest first", RUNS_DATA) },
    );
}
