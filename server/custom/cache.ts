/**
 * What every chat line reads of a channel's chat bot (its custom commands and its regulars), kept in
 * memory until something changes them: cleared by every write of this server (the service and the
 * dashboard's routes call `clear()`), and by the change feed when another process or instance wrote
 * (the migration's cache-change triggers cover commands' definitions and regulars, not counts).
 * Timers are cached by chat's timer runtime; this cache passes the news of their changes on.
 */
import { type CustomCommand, listCustomCommands } from "../../db/custom-commands.ts";
import type { DataStore } from "../../db/data-store.ts";
import { listRegulars } from "../../db/regulars.ts";
import { ReadCache } from "../cache/read-cache.ts";
import type { MaybePromise } from "../core/maybe-promise.ts";

export class ChatBotCache {
  readonly #commands = new ReadCache<ReadonlyMap<string, CustomCommand>>(10_000);
  readonly #regulars = new ReadCache<ReadonlySet<string>>(10_000);
  readonly #timerListeners = new Set<(accountId: number) => void>();

  constructor(private readonly db: DataStore) {}

  /** The channel's custom commands by stored name. Their counts may be behind: read counts from the store. */
  commands(accountId: number): MaybePromise<ReadonlyMap<string, CustomCommand>> {
    return this.#commands.get(String(accountId), async () => {
      const list = await listCustomCommands(this.db, accountId);
      return new Map(list.map((command) => [command.name, command]));
    });
  }

  /** The Twitch user ids of the channel's regulars. */
  regulars(accountId: number): MaybePromise<ReadonlySet<string>> {
    return this.#regulars.get(String(accountId), async () => {
      const list = await listRegulars(this.db, accountId);
      return new Set(list.map((regular) => regular.twitchUserId));
    });
  }

  clear(): void {
    this.#commands.clear();
    this.#regulars.clear();
  }

  /**
   * Tells this process's chat timers (custom/timers.ts) that an account's timers changed here, so a
   * timer disabled, deleted or edited on the dashboard never posts its old text from their cache
   * (other processes' writes reach them through the change feed). The unsubscribe is returned.
   */
  onTimersChanged(listener: (accountId: number) => void): () => void {
    this.#timerListeners.add(listener);
    return () => this.#timerListeners.delete(listener);
  }

  timersChanged(accountId: number): void {
    for (const listener of this.#timerListeners) listener(accountId);
  }
}
