import { Elysia, t } from "elysia";
import type { Account } from "../../db/accounts.ts";
import { readAlertSettings, setAlertsEnabled } from "../../db/alerts.ts";
import { revealCredential } from "../../db/credentials.ts";
import type { ChatState } from "../../db/schema-enums.ts";
import type { AlertSettings, AlertType } from "../alerts/model.ts";
import type { AlertsStatus } from "../alerts/status.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import type { Context } from "../runtime.ts";
import { bodyObject, booleanField, fieldError, panelDetail } from "./chat-bot-input.ts";

/**
 * The dashboard's stream alerts (issue 25; CONTRACT §6 "Alerts"): the switch and its state with the
 * states of native chat, each type's state and settings, and the overlay links OBS takes. A type's
 * settings change in alert-settings.ts; uploads in alert-assets.ts; tests, history and the demo's
 * buttons in alert-tools.ts.
 */

/** Where the re-consent login that adds `bits:read` and `channel:read:redemptions` starts (identity/routes-login.ts). */
export const ALERTS_CONSENT_URL = "/auth/login?consent=alerts";

export interface AlertTypeView {
  type: AlertType;
  state: ChatState;
  reason: string | null;
  settings: AlertSettings;
}

/** The overlay page's link for OBS, and the alerts-only one; null while the account has no overlay token. */
async function overlayLinks(ctx: Context, accountId: number) {
  const token = await revealCredential(ctx.db, ctx.secrets, "overlay-token", accountId);
  if (!token) return { overlayUrl: null, alertsOnlyUrl: null };
  const overlayUrl = `${ctx.publicUrl}/overlay/${encodeURIComponent(token)}`;
  return { overlayUrl, alertsOnlyUrl: `${overlayUrl}?only=alerts` };
}

/** Whether allowing cuebot again would help: a scope is missing, or Twitch refused or revoked a type. */
function needsConsent(status: AlertsStatus): boolean {
  return (
    status.missingScopes.length > 0 ||
    status.state === "needs_consent" ||
    status.types.some((t) => t.state === "needs_consent")
  );
}

/** `GET /api/dashboard/alerts`'s data: the live state where this instance receives alerts, else the stored one. */
export async function alertsPanelData(ctx: Context, account: Account) {
  const [status, settings, links] = await Promise.all([
    ctx.alertsStatus.status(account.id),
    readAlertSettings(ctx.db, account.id),
    overlayLinks(ctx, account.id),
  ]);
  const types: AlertTypeView[] = status.types.map(({ type, state, reason }) => ({
    type,
    state,
    reason,
    settings: settings[type],
  }));
  return {
    enabled: status.enabled,
    state: status.state,
    since: status.since === null ? null : new Date(status.since).toISOString(),
    reason: status.reason,
    consentUrl: needsConsent(status) ? ALERTS_CONSENT_URL : null,
    types,
    ...links,
  };
}

const DATA_DESCRIPTION =
  "`data: {enabled, state, since, reason, consentUrl, types: [{type, state, reason, settings}], overlayUrl, alertsOnlyUrl}`. `state` as native chat's (off, connecting, connected, needs_consent, error); a type whose scope is missing is `needs_consent` while the others work. `consentUrl` (`/auth/login?consent=alerts`) asks Twitch for `bits:read` and `channel:read:redemptions` beside what was granted; non-null while a scope is missing or Twitch refused or revoked a type, null otherwise. `settings`: `{enabled, template, minAmount, durationSeconds, volume, imageId, soundId, chatMessage}`. `overlayUrl` is the OBS browser source (1920×1080) showing the published card and alerts; `alertsOnlyUrl` shows alerts only.";

/** Alerts on the dashboard: their state, and the switch that turns them on and off. */
export function alertPanelRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-alerts", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .get(
      "/alerts",
      async ({ principal: { account } }) => ({
        status: 200 as const,
        data: await alertsPanelData(ctx, account),
      }),
      {
        detail: panelDetail(
          "Stream alerts: whether cuebot receives follows, subs, gifts, cheers, raids and redemptions, each type's state and settings, and the overlay links",
          DATA_DESCRIPTION,
        ),
      },
    )
    .put(
      "/alerts",
      async ({ principal: { account }, body }) => {
        const fields = bodyObject(body, ["enabled"], '{"enabled": true}');
        const enabled = booleanField(fields, "enabled");
        if (enabled === undefined) throw fieldError("body field", "enabled", "must be true or false.");
        await setAlertsEnabled(ctx.db, account.id, enabled, ctx.clock.now());
        await ctx.alertsStatus.sync(account.id);
        return { status: 200 as const, data: await alertsPanelData(ctx, account) };
      },
      {
        body: t.Unknown({
          description: '{"enabled": true} turns alerts on (they may then need consent), false off',
        }),
        detail: panelDetail("Turn stream alerts on or off", DATA_DESCRIPTION),
      },
    );
}
