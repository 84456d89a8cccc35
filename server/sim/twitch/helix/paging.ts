import { helixError } from "./http.ts";

/**
 * Paging. Cursors are opaque to clients; like Twitch's own (the reference's example cursor
 * "eyJiIjpudWxsLCJhIjp7Ik9mZnNldCI6NX19" is base64 of {"b":null,"a":{"Offset":5}}) one cursor
 * carries both directions: `a` is where the next page starts, `b` where the current page began,
 * so the same value works with `after` and, where documented, `before`.
 */

export interface Pagination {
  cursor?: string;
}

interface Cursor {
  before: number;
  after: number;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(
    JSON.stringify({ b: { Offset: cursor.before }, a: { Offset: cursor.after } }),
    "utf8",
  ).toString("base64url");
}

function decodeCursor(raw: string): Cursor | null {
  try {
    const parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as {
      b?: { Offset?: unknown } | null;
      a?: { Offset?: unknown } | null;
    };
    const before = parsed.b?.Offset;
    const after = parsed.a?.Offset;
    if (!Number.isInteger(before) || !Number.isInteger(after)) return null;
    if ((before as number) < 0 || (after as number) < 0) return null;
    return { before: before as number, after: after as number };
  } catch {
    return null;
  }
}

/** `first` within [1, max], default `def`; anything else is a 400 (twitch-cli silently defaults). */
export function parseFirst(query: URLSearchParams, max: number, def: number): number | Response {
  const raw = query.get("first");
  if (raw === null || raw === "") return def;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) {
    return helixError(
      400,
      `The parameter "first" was malformed: the value must be greater than or equal to 1 and less than or equal to ${max}`,
    );
  }
  return n;
}

interface PageOptions {
  max: number;
  def: number;
  /** The endpoint documents a `before` cursor. */
  before?: boolean;
}

/**
 * One page of `items`. `pagination` is `{cursor}` while there is more in the direction of travel
 * and `{}` at the end — never omitted (twitch-cli omits it, reference §3.4).
 */
export function paginate<T>(
  items: readonly T[],
  query: URLSearchParams,
  options: PageOptions,
): { data: T[]; pagination: Pagination } | Response {
  const first = parseFirst(query, options.max, options.def);
  if (first instanceof Response) return first;
  const after = query.get("after") || null;
  const before = options.before ? query.get("before") || null : null;
  if (after && before) return helixError(400, "The after and before parameters are mutually exclusive");
  let start = 0;
  let end: number;
  let more: boolean;
  if (before) {
    const cursor = decodeCursor(before);
    if (!cursor) return helixError(400, "The before cursor is not valid");
    end = Math.min(cursor.before, items.length);
    start = Math.max(0, end - first);
    more = start > 0;
  } else {
    if (after) {
      const cursor = decodeCursor(after);
      if (!cursor) return helixError(400, "The after cursor is not valid");
      start = cursor.after;
    }
    end = Math.min(items.length, start + first);
    more = end < items.length;
  }
  const data = items.slice(start, Math.max(start, end));
  return { data, pagination: more ? { cursor: encodeCursor({ before: start, after: end }) } : {} };
}
