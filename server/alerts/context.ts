import type { CoreContext } from "../core/context.ts";
import type { LiveHandle } from "../live/handle.ts";
import type { Alert } from "./model.ts";
import type { AlertsHandle } from "./status.ts";

/*
 * What stream alerts read, declared here rather than taken from the runtime's Context (server/runtime.ts
 * builds that one from alerts/, so naming it would tie the two together). The runtime's Context holds
 * every field; each function takes the part it reads.
 */

/** Where a delivered alert is shown: the account's overlays (overlay/alert-hub.ts `AlertHub`). */
export interface AlertOverlays {
  publish(accountId: number, alert: Alert): void;
}

/**
 * Alerts beside native chat (alerts/manager.ts, alerts/deliver.ts): the stored settings and states,
 * the overlays an alert is shown on, the live layer's hooks and stream states, and the status the
 * dashboard reads (`alertsStatus`).
 */
export type AlertsContext = Readonly<
  Pick<CoreContext, "db" | "clock" | "log" | "accounts" | "externalChanges">
> & {
  readonly alerts: AlertOverlays;
  readonly live: LiveHandle;
  readonly alertsStatus: AlertsHandle;
};
