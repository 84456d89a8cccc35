import type { DataStore } from "../../db/data-store.ts";
import type { ChatState } from "../../db/schema-enums.ts";
import type { CoreContext } from "../core/context.ts";

/** A feature's connection for one account, as the running server holds it. */
export interface FeatureConnection {
  readonly accountId: number;
  state: ChatState;
  since: number;
  reason: string | null;
}

/** Which feature, and how its state is stored (db/switched-features.ts `writeState`). */
export interface StateStore {
  /** The feature's name in the log: "chat", "alerts". */
  name: string;
  write(s: DataStore, accountId: number, state: ChatState, reason: string | null, at: number): Promise<void>;
}

/**
 * The states of a feature switched on per account (native chat's channels, alerts'), as the
 * dashboard and the CLI see them: a change is kept on the connection, logged and stored, in the order
 * they happened, one write after another; once closed, nothing more is reported (another instance
 * may hold the feature now and write its own).
 */
export class ConnectionStates {
  #closed = false;
  #writes: Promise<void> = Promise.resolve();

  constructor(
    protected readonly ctx: Pick<CoreContext, "db" | "log" | "clock">,
    private readonly feature: StateStore,
  ) {}

  get closed(): boolean {
    return this.#closed;
  }

  /** Nothing more is reported. */
  close(): void {
    this.#closed = true;
  }

  /** Settles once every state reported so far is stored (or failed to be). */
  get writes(): Promise<void> {
    return this.#writes;
  }

  /** Stores an account's state after those reported before it. */
  store(accountId: number, state: ChatState, reason: string | null, at: number): void {
    const { ctx, feature } = this;
    this.#writes = this.#writes
      .then(() => feature.write(ctx.db, accountId, state, reason, at))
      .catch((error: unknown) => ctx.log.warn(`could not store the ${feature.name} state`, { error }));
  }

  /** The connection's state changes (only when it differs), is stored and logged. */
  setState(connection: FeatureConnection, state: ChatState, reason: string | null = null): void {
    if (this.#closed || (connection.state === state && connection.reason === reason)) return;
    connection.state = state;
    connection.reason = reason;
    connection.since = this.ctx.clock.now();
    this.store(connection.accountId, state, reason, connection.since);
    this.ctx.log.info(`${this.feature.name} state changed`, {
      accountId: connection.accountId,
      state,
      ...(reason ? { reason } : {}),
    });
  }
}
