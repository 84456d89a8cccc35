/** What reading a query needs: the first value of a parameter, as URLSearchParams answers it. */
export interface QueryReader {
  get(name: string): string | null;
  has(name: string): boolean;
}

/**
 * A request's query parameters, read exactly as `URLSearchParams` reads them (first value wins; `+` is
 * a space; %-escapes decoded), at a fraction of its cost: the common query of a chat bot has no
 * escapes, so its values are plain substrings. A query with an escape that is not valid UTF-8 is
 * handed to URLSearchParams itself, which replaces such bytes as the URL standard says.
 */
export class QueryParams implements QueryReader {
  readonly #values = new Map<string, string>();

  constructor(raw: string) {
    if (raw.startsWith("?")) raw = raw.slice(1);
    if (raw === "") return;
    const escaped = raw.includes("%") || raw.includes("+");
    let start = 0;
    while (start <= raw.length) {
      let end = raw.indexOf("&", start);
      if (end === -1) end = raw.length;
      if (end > start) {
        const eq = raw.indexOf("=", start);
        const split = eq !== -1 && eq < end;
        let name = raw.substring(start, split ? eq : end);
        let value = split ? raw.substring(eq + 1, end) : "";
        if (escaped) {
          const decodedName = decodeComponent(name);
          const decodedValue = decodeComponent(value);
          if (decodedName === null || decodedValue === null) {
            this.#fromStandardParser(raw);
            return;
          }
          name = decodedName;
          value = decodedValue;
        }
        if (!this.#values.has(name)) this.#values.set(name, value);
      }
      start = end + 1;
    }
  }

  get(name: string): string | null {
    return this.#values.get(name) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name);
  }

  #fromStandardParser(raw: string): void {
    this.#values.clear();
    for (const [name, value] of new URLSearchParams(raw)) {
      if (!this.#values.has(name)) this.#values.set(name, value);
    }
  }
}

/** `+` as a space, then %-escapes; null when an escape is malformed or not UTF-8. */
function decodeComponent(text: string): string | null {
  const spaced = text.includes("+") ? text.replaceAll("+", " ") : text;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}
