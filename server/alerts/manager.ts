import { listAlertEnabledAccounts, readAlertChannel, writeAlertState } from "../../db/alerts.ts";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import { settledWithin } from "../core/settled-within.ts";
import type { LiveSessions } from "../live/sessions.ts";
import type { AlertsContext } from "./context.ts";
import { onAlertNotification } from "./deliver.ts";
import { ALERT_TYPES } from "./model.ts";
import { type AlertChannel, type AlertNotification, AlertReaders } from "./readers.ts";
import {
  type AlertsCloseOptions,
  type AlertsRuntime,
  type AlertsStatus,
  missingAlertScopes,
  storedAlertsStatus,
} from "./status.ts";

/** Longest wait at shutdown for the last writes. */
const CLOSE_WAIT_MS = 5_000;

const sameScopes = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((s) => b.includes(s));

/**
 * Stream alerts under `serve`, beside native chat (the same instance: the chat lease holder with
 * Redis): for every account that turned alerts on, a feed on the streamer's live session
 * (alerts/readers.ts, live/sessions.ts) whose notifications are delivered (alerts/deliver.ts). This file keeps the sockets in line with what is
 * stored, and again whenever another process changed the data.
 */
class AlertsManager implements AlertsRuntime {
  readonly #channels = new Map<number, AlertChannel>();
  readonly #readers: AlertReaders;
  #syncs: Promise<void> = Promise.resolve();
  #closed = false;
  #unsubscribe: () => void = () => {};

  constructor(
    private readonly ctx: AlertsContext,
    live: LiveSessions,
  ) {
    this.#readers = new AlertReaders(ctx, live, {
      onNotification: (channel, frame) => this.#onNotification(channel, frame),
    });
  }

  start(): void {
    void this.#syncAll();
    this.#unsubscribe = this.ctx.externalChanges.subscribe(() => void this.#syncAll());
  }

  async status(accountId: number): Promise<AlertsStatus> {
    const channel = this.#channels.get(accountId);
    if (!channel) return storedAlertsStatus(this.ctx, accountId);
    return {
      enabled: true,
      state: channel.state,
      since: channel.since,
      reason: channel.reason,
      types: ALERT_TYPES.map((type) => ({
        type,
        ...(channel.types.get(type) ?? { state: channel.state, reason: null }),
      })),
      missingScopes: missingAlertScopes(await grantedScopes(this.ctx.db, accountId)),
      live: this.ctx.live.streamState(accountId),
    };
  }

  sync(accountId: number): Promise<void> {
    this.#syncs = this.#syncs
      .then(() => this.#syncNow(accountId))
      .catch((error: unknown) =>
        this.ctx.log.warn("could not bring alerts in line with their settings", { accountId, error }),
      );
    return this.#syncs;
  }

  async close(options: AlertsCloseOptions = {}): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#readers.close();
    this.#unsubscribe();
    await settledWithin(CLOSE_WAIT_MS, Promise.all([this.#syncs, this.#readers.writes]));
    const ids = [...this.#channels.keys()];
    for (const id of ids) this.#remove(id);
    if (options.handOver) return;
    const now = this.ctx.clock.now();
    const end = options.end ?? { state: "off", reason: "cuebot is not running" };
    const writes = ids.map((id) => writeAlertState(this.ctx.db, id, end.state, end.reason, now));
    await settledWithin(CLOSE_WAIT_MS, Promise.allSettled(writes));
  }

  async #syncNow(accountId: number): Promise<void> {
    const { ctx } = this;
    if (this.#closed) return;
    const account = await ctx.accounts.account(accountId);
    const stored = account ? await readAlertChannel(ctx.db, accountId) : null;
    const existing = this.#channels.get(accountId);
    if (!account || !stored?.enabled) {
      this.#remove(accountId);
      if (account && stored && stored.state !== "off")
        this.#readers.store(accountId, "off", null, ctx.clock.now());
      return;
    }
    if (account.needsReauth) {
      this.#remove(accountId);
      const reason = "Twitch ended cuebot's access to your account: log in again.";
      this.#readers.store(accountId, "needs_consent", reason, ctx.clock.now());
      return;
    }
    const granted = await grantedScopes(ctx.db, accountId);
    if (this.#closed) return;
    const running = existing && this.#readers.running(existing);
    if (running && existing.broadcasterId === account.twitchUserId && sameScopes(existing.granted, granted)) {
      // A type Twitch refused or revoked may work again (the streamer allowed cuebot again).
      await this.#readers.resubscribeRefused(existing);
      return;
    }
    this.#remove(accountId);
    this.#channels.set(accountId, this.#readers.open(accountId, account.twitchUserId, granted));
  }

  /** Every account with alerts on, and every one held: one pass at a time. */
  async #syncAll(): Promise<void> {
    try {
      const ids = new Set([...this.#channels.keys(), ...(await listAlertEnabledAccounts(this.ctx.db))]);
      for (const accountId of ids) void this.sync(accountId);
    } catch (error) {
      this.ctx.log.warn("could not read which channels receive alerts", { error });
    }
  }

  #remove(accountId: number): void {
    const channel = this.#channels.get(accountId);
    if (!channel) return;
    this.#readers.remove(channel);
    this.#channels.delete(accountId);
  }

  /** One notification at a time per channel (in arrival order); a failed one does not stop the next. */
  #onNotification(channel: AlertChannel, frame: AlertNotification): void {
    const target = {
      accountId: channel.accountId,
      broadcasterId: channel.broadcasterId,
      flood: channel.flood,
    };
    channel.delivering = channel.delivering
      .then(() => onAlertNotification(this.ctx, target, frame))
      .then(
        () => {},
        (error: unknown) =>
          this.ctx.log.warn("an alert could not be delivered", { accountId: channel.accountId, error }),
      );
  }
}

/** A live alerts runtime reading on `live`'s sessions, connecting now; the caller closes it (beside native chat). */
export function startAlertsManager(ctx: AlertsContext, live: LiveSessions): AlertsRuntime {
  const manager = new AlertsManager(ctx, live);
  manager.start();
  return manager;
}
