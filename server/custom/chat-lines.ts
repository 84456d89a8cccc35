/**
 * How many chat lines each channel has seen since this server started (chatters' lines only, never
 * cuebot's own): timers (Nightbot's "at least M lines since the last post") compare the number now
 * with the one they noted at their last post. Counted where chat is read (chat/dispatch.ts calls
 * `noteChatLine`), so only the instance holding chat counts, which is the one that posts timers.
 */
export class ChatLines {
  readonly #seen = new Map<number, number>();

  /** A chatter's line was seen in `accountId`'s channel. */
  noteChatLine(accountId: number): void {
    this.#seen.set(accountId, (this.#seen.get(accountId) ?? 0) + 1);
  }

  /** Lines seen in the channel since this server started (0 before the first). */
  linesSeen(accountId: number): number {
    return this.#seen.get(accountId) ?? 0;
  }

  /** The account is gone or its chat stopped: its count is no longer needed. */
  forget(accountId: number): void {
    this.#seen.delete(accountId);
  }
}
