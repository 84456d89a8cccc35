import { readAlertChannel } from "../../db/alerts.ts";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import type { ChatState } from "../../db/schema-enums.ts";
import type { CoreContext } from "../core/context.ts";
import type { StreamState } from "../live/stream-state.ts";
import { ALERT_TYPES, type AlertType } from "./model.ts";
import { ALERT_SUBSCRIPTIONS, type AlertSubscription } from "./types.ts";

/** One alert type's subscription as the dashboard shows it. */
export interface AlertTypeStatus {
  type: AlertType;
  state: ChatState;
  /** Why the type is `needs_consent` or `error`, in words for the streamer; null otherwise. */
  reason: string | null;
}

/** What the dashboard shows of alerts (the panel's `GET /api/dashboard/alerts`). */
export interface AlertsStatus {
  enabled: boolean;
  /** The account's connection, with the states of native chat. */
  state: ChatState;
  since: number | null;
  reason: string | null;
  /** Each type in ALERT_TYPES' order. */
  types: AlertTypeStatus[];
  /** The scopes alerts need that the streamer has not granted (the consent URL asks for them). */
  missingScopes: string[];
  /** Live state from EventSub (live/stream-state.ts), when this instance hears it; null otherwise. */
  live: StreamState | null;
}

/** The running server's alert connections (server/alerts/manager.ts). */
export interface AlertsRuntime {
  status(accountId: number): Promise<AlertsStatus>;
  /** Connects or disconnects the account to match what is stored now; never rejects. */
  sync(accountId: number): Promise<void>;
  /**
   * Ends every connection; the stored state becomes `end` (default: off, "cuebot is not running")
   * unless another instance takes over.
   */
  close(options?: AlertsCloseOptions): Promise<void>;
}

export interface AlertsCloseOptions {
  handOver?: boolean;
  end?: { state: ChatState; reason: string };
}

type StoreContext = Pick<CoreContext, "db">;

/** Another scope that serves as well as the one types.ts names (Twitch accepts either). */
const SCOPE_ALTERNATIVES: Readonly<Record<string, string>> = {
  "channel:read:redemptions": "channel:manage:redemptions",
};

/** Whether the granted scopes let cuebot subscribe to `subscription`. */
export function scopeGranted(subscription: AlertSubscription, granted: readonly string[]): boolean {
  const { scope } = subscription;
  if (scope === null || granted.includes(scope)) return true;
  const alternative = SCOPE_ALTERNATIVES[scope];
  return alternative !== undefined && granted.includes(alternative);
}

/** The scopes alerts need that are missing from `granted`, each once, in ALERT_TYPES' order. */
export function missingAlertScopes(granted: readonly string[]): string[] {
  const missing = ALERT_TYPES.map((t) => ALERT_SUBSCRIPTIONS[t])
    .filter((s) => !scopeGranted(s, granted))
    .map((s) => s.scope as string);
  return [...new Set(missing)];
}

/** Why a type cannot be subscribed without `scope`, for the dashboard. */
export function missingScopeReason(scope: string): string {
  return `cuebot needs your permission for this alert (${scope}): allow it again.`;
}

/**
 * The status as stored: what the CLI and an instance without the connections report. A type whose
 * scope is missing is `needs_consent`; the others share the account's state.
 */
export async function storedAlertsStatus(ctx: StoreContext, accountId: number): Promise<AlertsStatus> {
  const [stored, granted] = await Promise.all([
    readAlertChannel(ctx.db, accountId),
    grantedScopes(ctx.db, accountId),
  ]);
  const enabled = stored?.enabled ?? false;
  // Turned on but stored "off" (no instance has picked it up yet): it is on its way.
  const storedState = stored?.state ?? "connecting";
  const state: ChatState = enabled ? (storedState === "off" ? "connecting" : storedState) : "off";
  const types = ALERT_TYPES.map((type): AlertTypeStatus => {
    const subscription = ALERT_SUBSCRIPTIONS[type];
    if (enabled && !scopeGranted(subscription, granted))
      return { type, state: "needs_consent", reason: missingScopeReason(subscription.scope as string) };
    return { type, state, reason: null };
  });
  return {
    enabled,
    state,
    since: stored?.stateSince ?? null,
    reason: enabled ? (stored?.reason ?? null) : null,
    types,
    missingScopes: missingAlertScopes(granted),
    live: null,
  };
}

/**
 * The context's alerts, made with the context and never replaced (like ChatHandle): it answers from
 * the live runtime this instance runs (started beside native chat), else from the store.
 */
export class AlertsHandle implements Omit<AlertsRuntime, "close"> {
  #live: AlertsRuntime | null = null;

  constructor(private readonly store: StoreContext) {}

  useLive(live: AlertsRuntime): void {
    this.#live = live;
  }

  /** The stored state answers again, unless a newer runtime took over meanwhile. */
  release(live: AlertsRuntime): void {
    if (this.#live === live) this.#live = null;
  }

  status(accountId: number): Promise<AlertsStatus> {
    return this.#live ? this.#live.status(accountId) : storedAlertsStatus(this.store, accountId);
  }

  sync(accountId: number): Promise<void> {
    return this.#live ? this.#live.sync(accountId) : Promise.resolve();
  }
}
