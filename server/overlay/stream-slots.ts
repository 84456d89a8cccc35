import { ipLimitKey } from "../core/ip-key.ts";

/** One open overlay stream as the slots know it: where it came from, and how to end it. */
export interface StreamSlot {
  /** The client address's key (an IPv6 address by its /64, as the per-IP limits count it). */
  readonly address: string;
  /** Ends the stream; the stream sets it once it runs (until then there is nothing to end). */
  close: () => void;
}

/**
 * The open streams of one kind (state, alerts) per account, oldest first, capped so that a leaked
 * overlay link cannot open hundreds, and shared fairly between client addresses (CONTRACT §6:
 * streams held open from one address never keep another address's overlay from connecting). At
 * the cap, a new stream from an address holding fewer streams than the address holding the most
 * closes that address's oldest one (its client reconnects, and is then the one refused); a new one
 * from the address holding the most (or as many) is refused: its own streams fill the cap.
 */
export class StreamSlots {
  readonly #open = new Map<number, StreamSlot[]>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** A slot for a new stream of the account from this client address, or null when it is refused. */
  claim(accountId: number, clientAddress: string): StreamSlot | null {
    const address = ipLimitKey(clientAddress);
    const open = this.#open.get(accountId) ?? [];
    if (open.length >= this.#max) {
      const evicted = this.#oldestOfLargestShare(open, address);
      if (!evicted) return null;
      this.release(accountId, evicted);
      evicted.close();
    }
    const slot: StreamSlot = { address, close: () => {} };
    open.push(slot);
    this.#open.set(accountId, open);
    return slot;
  }

  /** The stream ended (or was closed here): its slot is free. */
  release(accountId: number, slot: StreamSlot): void {
    const open = this.#open.get(accountId);
    const at = open?.indexOf(slot) ?? -1;
    if (!open || at === -1) return;
    open.splice(at, 1);
    if (open.length === 0) this.#open.delete(accountId);
  }

  /** The oldest stream of the address holding the most, if it holds more than `newcomer` does. */
  #oldestOfLargestShare(open: readonly StreamSlot[], newcomer: string): StreamSlot | undefined {
    const counts = new Map<string, number>();
    for (const slot of open) counts.set(slot.address, (counts.get(slot.address) ?? 0) + 1);
    const own = counts.get(newcomer) ?? 0;
    let largest: string | undefined;
    for (const [address, count] of counts) {
      if (count > own && count > (largest === undefined ? 0 : (counts.get(largest) ?? 0))) largest = address;
    }
    return largest === undefined ? undefined : open.find((slot) => slot.address === largest);
  }
}
