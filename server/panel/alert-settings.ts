import { Elysia, t } from "elysia";
import { writeAlertSettings } from "../../db/alerts.ts";
import type { AlertSettings } from "../alerts/model.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import type { Context } from "../runtime.ts";
import { alertRefusalsAnswered, alertTypeOf } from "./alert-input.ts";
import {
  bodyObject,
  booleanField,
  fieldError,
  integerField,
  type JsonObject,
  nullableTextField,
  panelDetail,
  textField,
} from "./chat-bot-input.ts";

/**
 * One alert type's settings on the dashboard (issue 25): each field read and refused at the field
 * here for its shape, then checked again by the store (db/alert-rules.ts: the template's placeholders,
 * the ranges, an asset that is the account's own of the right kind), whose refusals name the field
 * too. What the body leaves out stays as it was.
 */

const FIELDS = [
  "enabled",
  "template",
  "minAmount",
  "durationSeconds",
  "volume",
  "imageId",
  "soundId",
  "chatMessage",
] as const;
const EXAMPLE = '{"template": "{user} cheered {amount} bits!", "minAmount": 100, "durationSeconds": 8}';

/** An uploaded file's id or null (none); undefined when absent. */
function assetIdField(body: JsonObject, field: string): number | null | undefined {
  if (body[field] === null) return null;
  const id = integerField(body, field);
  if (id !== undefined && id < 1)
    throw fieldError("body field", field, "must be an uploaded file's id, or null.");
  return id;
}

/** The changes a body names, each of the right shape. */
export function alertSettingsChanges(body: unknown): Partial<AlertSettings> {
  const fields = bodyObject(body, FIELDS, EXAMPLE);
  const read: Partial<AlertSettings> = {
    enabled: booleanField(fields, "enabled"),
    template: textField(fields, "template"),
    minAmount: integerField(fields, "minAmount"),
    durationSeconds: integerField(fields, "durationSeconds"),
    volume: integerField(fields, "volume"),
    imageId: assetIdField(fields, "imageId"),
    soundId: assetIdField(fields, "soundId"),
    chatMessage: nullableTextField(fields, "chatMessage"),
  };
  return Object.fromEntries(Object.entries(read).filter(([, value]) => value !== undefined));
}

const DESCRIPTION =
  "Fields (each optional; what is left out stays): `enabled`; `template` (≤ 200 characters, one line, placeholders `{user}` `{amount}` `{months}` `{tier}` `{reward}` `{message}` `{viewers}`; any other is refused); `minAmount` (0–1,000,000: a cheer's bits, a raid's viewers, a gift's subs below it are kept in the history but not shown; 0 = any); `durationSeconds` (2–30); `volume` (0–100); `imageId` and `soundId` (an uploaded image or sound of this channel, or null); `chatMessage` (null, or a line of ≤ 200 characters native chat sends when the alert shows, with the same placeholders but never `{message}`; `{user}` only when the name is login-shaped). A refused field is named in the message and in `X-Cuebot-Field`; nothing changes then. Answers `data: {type, settings}`.";

/** `PUT /api/dashboard/alerts/types/:type`. */
export function alertSettingsRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-alert-settings", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .put(
      "/alerts/types/:type",
      async ({ principal: { account }, params, body }) => {
        const type = alertTypeOf(params.type, "path parameter");
        const changes = alertSettingsChanges(body);
        const settings = await alertRefusalsAnswered(() =>
          writeAlertSettings(ctx.db, account.id, type, changes, ctx.clock.now()),
        );
        return { status: 200 as const, data: { type, settings } };
      },
      {
        body: t.Unknown({ description: EXAMPLE }),
        detail: panelDetail(
          "Change one alert type's settings (follow, subscribe, resub, gift, cheer, raid, redemption)",
          DESCRIPTION,
        ),
      },
    );
}
