import { describe, expect, test } from "bun:test";
import { AddressTable } from "../../../server/limits/address-table.ts";
import { seededRandom } from "../../helpers/prng.ts";

/** The reference: a Map in recency order (oldest first), as lru-cache behaved. */
function referenceLru(capacity: number) {
  const map = new Map<string, true>();
  return {
    find(key: string) {
      if (!map.has(key)) return false;
      map.delete(key);
      map.set(key, true);
      return true;
    },
    insert(key: string) {
      if (map.size >= capacity) map.delete(map.keys().next().value!);
      map.set(key, true);
    },
    has: (key: string) => map.has(key),
    get size() {
      return map.size;
    },
  };
}

describe("address table", () => {
  test("remembers and forgets exactly like an LRU of the same size, over random traffic", () => {
    for (let seed = 1; seed <= 5; seed++) {
      const random = seededRandom(seed);
      const table = new AddressTable(64);
      const reference = referenceLru(64);
      for (let i = 0; i < 20_000; i++) {
        const n = Math.floor(random() * 200);
        const address =
          n % 3 === 0 ? `192.0.2.${n}` : n % 3 === 1 ? `2001:db8:${n.toString(16)}::1` : `name-${n}`;
        const found = table.find(address) !== -1;
        expect(found).toBe(reference.find(address));
        if (!found) {
          table.insert(address);
          reference.insert(address);
        }
        expect(table.size).toBe(reference.size);
      }
      for (let n = 0; n < 200; n++) {
        const address = `192.0.2.${n}`;
        expect(table.peek(address) !== -1).toBe(reference.has(address));
      }
    }
  });

  test("an IPv6 /64 is one key; IPv4 written as IPv4-mapped IPv6 or with leading zeros is the same client", () => {
    const table = new AddressTable(8);
    const slot = table.insert("2001:db8:aa:bb::1");
    expect(table.find("2001:0db8:00aa:00bb:ffff:1:2:3")).toBe(slot);
    expect(table.find("[2001:db8:aa:bb::9]")).toBe(slot);
    expect(table.find("2001:db8:aa:bc::1")).toBe(-1);
    const v4 = table.insert("203.0.113.7");
    expect(table.find("::ffff:203.0.113.7")).toBe(v4);
    expect(table.find("203.000.113.07")).toBe(v4);
    expect(table.find("203.0.113.8")).toBe(-1);
  });

  test("a full table reuses the least recently used slot", () => {
    const table = new AddressTable(2);
    const a = table.insert("10.0.0.1");
    table.insert("10.0.0.2");
    table.find("10.0.0.1");
    expect(table.insert("10.0.0.3")).not.toBe(a);
    expect(table.find("10.0.0.2")).toBe(-1);
    expect(table.find("10.0.0.1")).toBe(a);
    expect(table.size).toBe(2);
  });
});
