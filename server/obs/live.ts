import { listObsEnabledAccounts, type ObsSeen, readObs, writeObsSeen } from "../../db/obs.ts";
import {
  OBS_TIMINGS,
  ObsConnection,
  ObsNotConnected,
  type ObsTarget,
  type ObsTimings,
} from "./connection.ts";
import type { ObsContext, ObsRuntime } from "./context.ts";
import { runObsStep } from "./step-runner.ts";
import type { ObsStep, ObsStepDone } from "./steps.ts";

/**
 * The OBS connections on the instance that runs the live layer (with Redis, the chat lease holder):
 * one per account whose streamer turned it on with `via: server`, opened at start, and opened,
 * replaced or closed when the settings change (here at once, from another instance through the change
 * feed). What each connection sees is written to the store, so every instance answers the same.
 */
export class ObsLive implements ObsRuntime {
  readonly #connections = new Map<number, ObsConnection>();
  /** Accounts whose overlay page reaches OBS (`via: overlay`): their steps go through the relay. */
  readonly #relayed = new Set<number>();
  /** Each account's changes, one after the other. */
  readonly #queues = new Map<number, Promise<void>>();
  #unsubscribe: (() => void) | null = null;
  #closed = false;

  constructor(
    private readonly ctx: ObsContext,
    private readonly timings: ObsTimings = OBS_TIMINGS,
  ) {}

  start(): void {
    this.#unsubscribe = this.ctx.externalChanges.subscribe(() => void this.#syncAll());
    void this.#syncAll();
  }

  changed(accountId: number): void {
    const previous = this.#queues.get(accountId) ?? Promise.resolve();
    const next = previous.then(() => this.#sync(accountId));
    this.#queues.set(accountId, next);
    void next.finally(() => {
      if (this.#queues.get(accountId) === next) this.#queues.delete(accountId);
    });
  }

  connection(accountId: number): ObsConnection | null {
    return this.#connections.get(accountId) ?? null;
  }

  step(accountId: number, step: ObsStep): Promise<ObsStepDone> {
    const connection = this.#connections.get(accountId);
    if (connection) return runObsStep(connection, step);
    if (this.#relayed.has(accountId)) return this.ctx.obs.relay.step(accountId, step);
    return Promise.reject(new ObsNotConnected("OBS is not connected: the connection is off."));
  }

  /** Disconnects every account; the stored states stay for whoever runs the live layer next. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#unsubscribe?.();
    for (const connection of this.#connections.values()) connection.close();
    this.#connections.clear();
    await Promise.allSettled([...this.#queues.values()]);
  }

  async #syncAll(): Promise<void> {
    try {
      const enabled = await listObsEnabledAccounts(this.ctx.db);
      // The relayed ones too: one turned off elsewhere is not among the enabled any more.
      const known = [...enabled, ...this.#connections.keys(), ...this.#relayed];
      for (const accountId of new Set(known)) this.changed(accountId);
    } catch (error) {
      this.ctx.log.warn("could not read the accounts' OBS settings", { error: (error as Error).message });
    }
  }

  async #sync(accountId: number): Promise<void> {
    if (this.#closed) return;
    try {
      const target = await this.#wanted(accountId);
      const current = this.#connections.get(accountId);
      if (current && target && sameTarget(current.target, target) && !current.gaveUp())
        return this.#write(accountId, current.status());
      current?.close();
      this.#connections.delete(accountId);
      if (target && !this.#closed) this.#open(accountId, target);
    } catch (error) {
      this.ctx.log.warn("could not apply the OBS settings", { accountId, error: (error as Error).message });
    }
  }

  /** Where this instance should connect for the account: null when off or when the overlay connects. */
  async #wanted(accountId: number): Promise<ObsTarget | null> {
    const stored = await readObs(this.ctx.db, this.ctx.secrets, accountId);
    if (stored?.enabled && stored.via === "overlay") this.#relayed.add(accountId);
    else this.#relayed.delete(accountId);
    if (!stored?.enabled || stored.via !== "server") return null;
    return { url: stored.url, password: stored.password };
  }

  #open(accountId: number, target: ObsTarget): void {
    const connection = new ObsConnection(
      target,
      { now: () => this.ctx.clock.now(), changed: (seen) => this.#write(accountId, seen) },
      this.timings,
    );
    this.#connections.set(accountId, connection);
    connection.start();
  }

  async #write(accountId: number, seen: ObsSeen): Promise<void> {
    try {
      await writeObsSeen(this.ctx.db, accountId, seen);
    } catch (error) {
      this.ctx.log.warn("could not record the OBS connection's state", {
        accountId,
        error: (error as Error).message,
      });
    }
  }
}

const sameTarget = (a: ObsTarget, b: ObsTarget) => a.url === b.url && a.password === b.password;

/** Starts the connections and has the context's handle point at them until closed. */
export function startObs(ctx: ObsContext, timings?: ObsTimings): ObsLive {
  const live = new ObsLive(ctx, timings);
  ctx.obs.useLive(live);
  live.start();
  return live;
}
