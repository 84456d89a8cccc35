import { Elysia, t } from "elysia";
import type { Account } from "../../db/accounts.ts";
import {
  alertHistory,
  getAlertEvent,
  readAlertSettings,
  recordAlertEvent,
  type StoredAlertEvent,
} from "../../db/alerts.ts";
import type { Alert, AlertFields, AlertType } from "../alerts/model.ts";
import { presentAlert, REPLAY_KEY_PREFIX } from "../alerts/present.ts";
import { sampleFields } from "../alerts/samples.ts";
import { fillTemplate } from "../alerts/template.ts";
import { notFound } from "../core/errors.ts";
import { integerParam } from "../core/params.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import type { Context } from "../runtime.ts";
import { alertRefusalsAnswered, alertTypeField } from "./alert-input.ts";
import { simulateAlertEvent } from "./alert-simulate.ts";
import { bodyObject, panelDetail, rowNumberParam } from "./chat-bot-input.ts";
import { firstValue } from "./query.ts";

/**
 * The Alerts view's tools (issue 25): "send a test alert" (sample fields, stored as a test, shown on
 * the overlay whatever the type's settings), the history of the last alerts, the replay of one, and in
 * demo mode the buttons that make the simulated Twitch fire a real event (alert-simulate.ts).
 */

/** Event keys of what the dashboard asked for: never Twitch's, so never counted as a viewer's event. */
export const TEST_KEY_PREFIX = "test:";
export { REPLAY_KEY_PREFIX };

const HISTORY_DEFAULT = 50;
const HISTORY_MAX = 200;

/** Stores an alert the dashboard asked for and shows it on the account's overlays. */
async function recordAndPublish(
  ctx: Context,
  account: Account,
  event: { type: AlertType; fields: AlertFields; test: boolean; eventKey: string },
): Promise<Alert> {
  const stored = await alertRefusalsAnswered(() =>
    recordAlertEvent(ctx.db, { accountId: account.id, ...event, at: ctx.clock.now() }),
  );
  // A random key is never seen before; a null here would be the store's fault.
  if (!stored) throw new Error("a new alert's random key was already stored");
  const settings = (await readAlertSettings(ctx.db, account.id))[stored.type];
  const alert = presentAlert(stored, settings);
  ctx.alerts.publish(account.id, alert);
  // A test alert sets off the actions it would (how a streamer tries one), as a real one would: only
  // while its type is on. A replay does not.
  if (event.test && settings.enabled)
    ctx.live.hooks.alertReceived.emit(
      { accountId: account.id, type: stored.type, fields: stored.fields },
      undefined,
    );
  return alert;
}

/** A history row as the dashboard lists it: with the text its type's template gives it now. */
function historyItem(event: StoredAlertEvent, template: string) {
  return {
    id: event.id,
    type: event.type,
    fields: event.fields,
    test: event.test,
    replay: event.eventKey.startsWith(REPLAY_KEY_PREFIX),
    at: new Date(event.at).toISOString(),
    text: fillTemplate(template, event.fields, event.type),
  };
}

const ALERT_SHAPE =
  "Answers the alert as the overlay gets it: `data: {id, type, fields, at, test, text, durationMs, imageId, soundId, volume}`.";

/** Test alerts, the history with replay, and the demo's simulated events. */
export function alertToolRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-alert-tools", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .post(
      "/alerts/test",
      async ({ principal: { account }, body }) => {
        const type = alertTypeField(bodyObject(body, ["type"], '{"type": "cheer"}'));
        const eventKey = `${TEST_KEY_PREFIX}${crypto.randomUUID()}`;
        const alert = await recordAndPublish(ctx, account, {
          type,
          fields: sampleFields(type),
          test: true,
          eventKey,
        });
        return { status: 200 as const, data: alert };
      },
      {
        body: t.Unknown({ description: '{"type": "cheer"}' }),
        detail: panelDetail(
          "Send a test alert of one type to this channel's overlays",
          `Sample fields (CuebotTester cheering 500 bits, …), the type's current settings, shown even when the type is off; kept in the history marked \`test\`, never in the activity feed, never a thanks line; while the type is on it sets off the type's actions (on the instance holding them), as a real one would. ${ALERT_SHAPE}`,
        ),
      },
    )
    .get(
      "/alerts/history",
      async ({ principal: { account }, request }) => {
        const limit = integerParam(firstValue(request, "limit"), "limit", {
          min: 1,
          max: HISTORY_MAX,
          fallback: HISTORY_DEFAULT,
        });
        const [events, settings] = await Promise.all([
          alertHistory(ctx.db, account.id, limit),
          readAlertSettings(ctx.db, account.id),
        ]);
        return {
          status: 200 as const,
          data: { items: events.map((event) => historyItem(event, settings[event.type].template)) },
        };
      },
      {
        detail: panelDetail(
          "The channel's last alerts, newest first (cuebot keeps 200)",
          "`?limit=1..200` (default 50). `data: {items: [{id, type, fields, test, replay, at, text}]}`; `fields` are `{user, amount, months, tier, reward, message}`, `text` the type's template filled now.",
        ),
      },
    )
    .post(
      "/alerts/history/:id/replay",
      async ({ principal: { account }, params }) => {
        const id = rowNumberParam(params.id, "id");
        const event = await getAlertEvent(ctx.db, account.id, id);
        if (!event) throw notFound(`There is no alert ${id} in this channel's history.`);
        const eventKey = `${REPLAY_KEY_PREFIX}${event.id}:${crypto.randomUUID()}`;
        const alert = await recordAndPublish(ctx, account, { ...event, eventKey });
        return { status: 200 as const, data: alert };
      },
      {
        detail: panelDetail(
          "Show an alert of the history again on the overlays",
          `The replay is a new alert (a new id, so overlays that showed the first show it again), kept in the history marked \`replay\`. ${ALERT_SHAPE}`,
        ),
      },
    )
    .post(
      "/alerts/simulate",
      async ({ principal: { account }, body }) => {
        const type = alertTypeField(bodyObject(body, ["type"], '{"type": "raid"}'));
        await simulateAlertEvent(ctx, account, type);
        return { status: 200 as const, data: { type, emitted: true } };
      },
      {
        body: t.Unknown({ description: '{"type": "raid"}' }),
        detail: panelDetail(
          "Demo mode only: the simulated Twitch sends a real EventSub event of this type to the demo channel",
          "The event takes the whole path a real one does (EventSub, dedupe, settings, the history, the overlays, the chat line). 404 outside `cuebot serve --demo`.",
        ),
      },
    );
}
