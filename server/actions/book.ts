import type { DataStore } from "../../db/data-store.ts";
import type { Action } from "./model.ts";
import { listActions } from "./store.ts";

/** An account's enabled actions, by what sets them off. */
export interface AccountActions {
  /** Command triggers by their name (lower case, without `!`). */
  readonly commands: ReadonlyMap<string, Action>;
  readonly alerts: readonly Action[];
  readonly streams: readonly Action[];
}

/** Accounts whose actions are kept at most; past it the oldest read is dropped (read again when needed). */
const MAX_ACCOUNTS = 20_000;

function sorted(actions: readonly Action[]): AccountActions {
  const commands = new Map<string, Action>();
  const alerts: Action[] = [];
  const streams: Action[] = [];
  for (const action of actions) {
    if (!action.enabled) continue;
    const { trigger } = action;
    if (trigger.type === "command") commands.set(trigger.command.toLowerCase(), action);
    else if (trigger.type === "alert") alerts.push(action);
    else if (trigger.type === "stream") streams.push(action);
  }
  return { commands, alerts, streams };
}

/**
 * Each account's enabled actions, from memory (chat's hot path reads it for every `!` line): read
 * once per account, dropped by a write here (`drop`) and by every change another process made (the
 * change feed: `clear`).
 */
export class ActionBook {
  readonly #accounts = new Map<number, Promise<AccountActions>>();

  constructor(private readonly db: DataStore) {}

  actions(accountId: number): Promise<AccountActions> {
    const known = this.#accounts.get(accountId);
    if (known) return known;
    if (this.#accounts.size >= MAX_ACCOUNTS) this.#accounts.delete(this.#accounts.keys().next().value!);
    const read = listActions(this.db, accountId).then(sorted);
    this.#accounts.set(accountId, read);
    // A failed read is not kept: the next line reads again.
    read.catch(() => {
      if (this.#accounts.get(accountId) === read) this.#accounts.delete(accountId);
    });
    return read;
  }

  drop(accountId: number): void {
    this.#accounts.delete(accountId);
  }

  clear(): void {
    this.#accounts.clear();
  }
}
