import { ipv4Bits, parseIp } from "../core/ip-key.ts";

/**
 * A fixed-size table of client addresses with least-recently-used eviction, in typed arrays: a slot
 * number per remembered address, and nothing allocated per new address once the table is full (the
 * oldest slot is reused). Per-IP limits keep their counters in parallel arrays indexed by slot.
 *
 * Keys are numeric: an IPv4 address is its 32 bits; an IPv6 address is its /64 prefix (one client
 * usually holds a whole /64, see ip-key.ts); anything else (the "unknown" of a request without a
 * socket, test names) is a 64-bit hash of the text.
 */

const EMPTY = -1;
const KIND_IPV4 = 1;
const KIND_IPV6_64 = 2;
const KIND_TEXT = 3;

/** The numeric key of the last `encode` call (kind, high 32 bits, low 32 bits). */
const scratch = new Int32Array(3);

/** FNV-1a over the UTF-16 code units, twice with different seeds: 64 bits for text keys. */
function hashText(text: string): void {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  scratch[0] = KIND_TEXT;
  scratch[1] = a;
  scratch[2] = b;
}

/** Writes the numeric key of `address` into `scratch`. */
function encode(address: string): void {
  const v4 = ipv4Bits(address);
  if (v4 >= 0) {
    scratch[0] = KIND_IPV4;
    scratch[1] = 0;
    scratch[2] = v4 | 0;
    return;
  }
  const ip = parseIp(address);
  if (!ip) {
    hashText(address);
    return;
  }
  if (ip.version === 4) {
    const [a, b, c, d] = ip.octets as [number, number, number, number];
    scratch[0] = KIND_IPV4;
    scratch[1] = 0;
    scratch[2] = (a << 24) | (b << 16) | (c << 8) | d | 0;
    return;
  }
  const g = ip.groups;
  scratch[0] = KIND_IPV6_64;
  scratch[1] = (g[0]! << 16) | g[1]!;
  scratch[2] = (g[2]! << 16) | g[3]!;
}

export class AddressTable {
  readonly capacity: number;
  readonly #kind: Int32Array;
  readonly #high: Int32Array;
  readonly #low: Int32Array;
  /** Open-addressing index (twice the capacity, linear probing): slot number or EMPTY. */
  readonly #index: Int32Array;
  readonly #mask: number;
  /** Recency list through the used slots: head = most recently used, tail = least. */
  readonly #newer: Int32Array;
  readonly #older: Int32Array;
  #head = EMPTY;
  #tail = EMPTY;
  #size = 0;
  /** Where each slot sits in the index, so eviction removes it without a search. */
  readonly #position: Int32Array;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be ≥ 1: ${capacity}`);
    this.capacity = capacity;
    this.#kind = new Int32Array(capacity);
    this.#high = new Int32Array(capacity);
    this.#low = new Int32Array(capacity);
    // Written for a slot when it is taken, before anything reads them: left unfilled, their pages stay
    // untouched (and out of RSS) until addresses arrive (~1.3 MB idle for the four limits, issue 26).
    this.#newer = new Int32Array(capacity);
    this.#older = new Int32Array(capacity);
    this.#position = new Int32Array(capacity);
    let indexSize = 2;
    while (indexSize < capacity * 2) indexSize *= 2;
    this.#index = new Int32Array(indexSize).fill(EMPTY);
    this.#mask = indexSize - 1;
  }

  get size(): number {
    return this.#size;
  }

  /** The slot of `address`, marked most recently used, or EMPTY (-1) when it is not remembered. */
  find(address: string): number {
    encode(address);
    const slot = this.#lookup();
    if (slot !== EMPTY) this.#touch(slot);
    return slot;
  }

  /** Like find, without changing recency. */
  peek(address: string): number {
    encode(address);
    return this.#lookup();
  }

  /**
   * Remembers `address` (which `find` just reported missing) and returns its slot: a free one, or
   * the least recently used one, whose counters the caller resets.
   */
  insert(address: string): number {
    let slot: number;
    if (this.#size < this.capacity) {
      slot = this.#size++;
    } else {
      slot = this.#tail;
      this.#unlink(slot);
      this.#removeFromIndex(slot); // uses the scratch key: encode the new address after it
    }
    encode(address);
    this.#kind[slot] = scratch[0]!;
    this.#high[slot] = scratch[1]!;
    this.#low[slot] = scratch[2]!;
    let i = this.#hash();
    while (this.#index[i] !== EMPTY) i = (i + 1) & this.#mask;
    this.#index[i] = slot;
    this.#position[slot] = i;
    this.#pushFront(slot);
    return slot;
  }

  clear(): void {
    this.#index.fill(EMPTY);
    this.#newer.fill(EMPTY);
    this.#older.fill(EMPTY);
    this.#position.fill(EMPTY);
    this.#head = EMPTY;
    this.#tail = EMPTY;
    this.#size = 0;
  }

  #hash(): number {
    let h = Math.imul(scratch[2]! ^ 0x9e3779b9, 0x85ebca6b);
    h ^= Math.imul(scratch[1]! ^ (scratch[0]! << 29), 0xc2b2ae35);
    h ^= h >>> 15;
    h = Math.imul(h, 0x27d4eb2f);
    return (h ^ (h >>> 13)) & this.#mask;
  }

  #lookup(): number {
    const kind = scratch[0]!;
    const high = scratch[1]!;
    const low = scratch[2]!;
    for (let i = this.#hash(); ; i = (i + 1) & this.#mask) {
      const slot = this.#index[i]!;
      if (slot === EMPTY) return EMPTY;
      if (this.#low[slot] === low && this.#high[slot] === high && this.#kind[slot] === kind) return slot;
    }
  }

  /** Deletes the slot's index entry, shifting later entries of its probe run back (no tombstones). */
  #removeFromIndex(slot: number): void {
    const mask = this.#mask;
    let hole = this.#position[slot]!;
    this.#index[hole] = EMPTY;
    this.#position[slot] = EMPTY;
    for (let i = (hole + 1) & mask; this.#index[i] !== EMPTY; i = (i + 1) & mask) {
      const moving = this.#index[i]!;
      scratch[0] = this.#kind[moving]!;
      scratch[1] = this.#high[moving]!;
      scratch[2] = this.#low[moving]!;
      const home = this.#hash();
      // The entry may fill the hole if its home is not cyclically within (hole, i].
      const distanceToEntry = (i - home) & mask;
      const distanceToHole = (hole - home) & mask;
      if (distanceToHole < distanceToEntry) {
        this.#index[hole] = moving;
        this.#position[moving] = hole;
        this.#index[i] = EMPTY;
        hole = i;
      }
    }
  }

  #touch(slot: number): void {
    if (this.#head === slot) return;
    this.#unlink(slot);
    this.#pushFront(slot);
  }

  #unlink(slot: number): void {
    const newer = this.#newer[slot]!;
    const older = this.#older[slot]!;
    if (newer === EMPTY) this.#head = older;
    else this.#older[newer] = older;
    if (older === EMPTY) this.#tail = newer;
    else this.#newer[older] = newer;
    this.#newer[slot] = EMPTY;
    this.#older[slot] = EMPTY;
  }

  #pushFront(slot: number): void {
    this.#newer[slot] = EMPTY;
    this.#older[slot] = this.#head;
    if (this.#head !== EMPTY) this.#newer[this.#head] = slot;
    this.#head = slot;
    if (this.#tail === EMPTY) this.#tail = slot;
  }
}
