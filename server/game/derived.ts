/**
 * What was worked out from cached provider data, kept with that data so a repeated request derives
 * nothing: keyed by the identity of the provider values it came from. A refreshed cache entry holds a
 * new value object, so nothing derived from the old one can answer for it; and a WeakMap lets what was
 * derived go with the value when the provider cache (bounded) drops it.
 */
export class DerivedFrom<V> {
  readonly #memo = new WeakMap<object, { other: object; value: V }>();

  /** `holds`: whether a value derived earlier still holds now (always, unless the derivation reads the clock). */
  constructor(private readonly holds: (value: V) => boolean = () => true) {}

  /** What `derive` gives for `source` with `other` (the second value it reads), derived once. */
  of(source: object, other: object, derive: () => V): V {
    const hit = this.#memo.get(source);
    if (hit !== undefined && hit.other === other && this.holds(hit.value)) return hit.value;
    const value = derive();
    this.#memo.set(source, { other, value });
    return value;
  }
}

/** A variant of an answer: which `type` (none, 1, 2 or 3) and whether stale data stood in. */
function variantIndex(type: number | undefined, stale: boolean): number {
  return (type ?? 0) * 2 + (stale ? 1 : 0);
}

/**
 * The answers made from one derived value, one per variant (at most eight), kept with that value the
 * same way: they go when it goes.
 */
export class VariantsOf<A> {
  readonly #memo = new WeakMap<object, (A | undefined)[]>();

  of(source: object, type: number | undefined, stale: boolean, make: () => A): A {
    let variants = this.#memo.get(source);
    if (variants === undefined) {
      variants = [];
      this.#memo.set(source, variants);
    }
    const index = variantIndex(type, stale);
    let answer = variants[index];
    if (answer === undefined) {
      answer = make();
      variants[index] = answer;
    }
    return answer;
  }
}
