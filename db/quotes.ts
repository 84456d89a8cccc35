import { and, asc, count, eq, gt, type SQL, sql } from "drizzle-orm";
import {
  CHAT_BOT_LIMITS,
  ChatBotDataError,
  checkGame,
  checkText,
  codePoints,
  isRowKey,
  limitReached,
} from "./chat-bot-rules.ts";
import type { DataStore, Tables } from "./data-store.ts";
import type { quotes } from "./sqlite/schema.ts";

/**
 * Numbered quotes (`!quote 12`). Numbers start at 1 per account and are never given again after a
 * delete: `!quote 12` keeps meaning the quote once saved as 12 or none, as with StreamElements' ids
 * and Firebot's (gaps kept), rather than shifting every later quote down (reference
 * chat-bot-commands.md §5).
 */
export type Quote = Omit<typeof quotes.$inferSelect, "accountId" | "searchText">;

export interface QuotePage {
  items: Quote[];
  /** The `after` of the next page, or null when this one is the last. */
  next: number | null;
}

export interface QuotePageRequest {
  /** Only quotes whose text holds this, case-insensitively (blank: every quote). */
  matching?: string;
  /** Only numbers above this one (the previous page's `next`). */
  after?: number;
  /** 1–100 (default 20). */
  limit?: number;
}

const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

const quoteColumns = (t: Tables) => ({
  number: t.quotes.number,
  text: t.quotes.text,
  game: t.quotes.game,
  createdAt: t.quotes.createdAt,
  updatedAt: t.quotes.updatedAt,
});

/** What search compares: JavaScript's lower case, the same on both databases (see the schema). */
const searchTextOf = (text: string) => text.toLowerCase();

/** LIKE's own characters in a search term, taken literally. */
const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A control character (NUL included): no stored quote holds one, and PostgreSQL refuses NUL. */
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * What a search term asks: undefined for every quote (blank), null for none (longer than any quote
 * can be, or holding a control character), else the LIKE pattern.
 */
function patternOf(matching: string | undefined): string | undefined | null {
  const term = matching?.trim() ?? "";
  if (term === "") return undefined;
  if (codePoints(term) > CHAT_BOT_LIMITS.textLength) return null;
  if (CONTROL_CHARACTER.test(term)) return null;
  return `%${escapeLike(searchTextOf(term))}%`;
}

/** The account's quotes, those whose text matches `pattern` when there is one. */
function quotesOf(t: Tables, accountId: number, pattern: string | undefined): SQL {
  const own = eq(t.quotes.accountId, accountId);
  return pattern === undefined
    ? own
    : (and(own, sql`${t.quotes.searchText} LIKE ${pattern} ESCAPE '\\'`) as SQL);
}

export async function countQuotes(s: DataStore, accountId: number, matching?: string): Promise<number> {
  const pattern = patternOf(matching);
  if (pattern === null) return 0;
  const row = await s.first((db, t) =>
    db
      .select({ n: count() })
      .from(t.quotes)
      .where(quotesOf(t, accountId, pattern)),
  );
  return row?.n ?? 0;
}

/**
 * Saves a quote under the account's next number and answers it. The number comes from the
 * account's counter row, bumped in the same transaction (its row lock queues concurrent adds on
 * PostgreSQL; SQLite has one writer), so two instances adding at once get distinct numbers and the
 * 10,000 limit holds exactly; a refused add gives its number back (rolled back).
 */
export async function addQuote(
  s: DataStore,
  accountId: number,
  input: { text: string; game?: string | null },
  now: number,
): Promise<Quote> {
  const text = checkText(input.text, "text", "A quote");
  const game = checkGame(input.game ?? null);
  return await s.transaction(async (tx) => {
    const counter = await tx.first((db, t) =>
      db
        .insert(t.quoteCounters)
        .values({ accountId, lastNumber: 1 })
        .onConflictDoUpdate({
          target: t.quoteCounters.accountId,
          set: { lastNumber: sql`${t.quoteCounters.lastNumber} + 1` },
        })
        .returning({ number: t.quoteCounters.lastNumber }),
    );
    if ((await countQuotes(tx, accountId)) >= CHAT_BOT_LIMITS.quotesPerAccount) {
      throw limitReached("text", "quotes", CHAT_BOT_LIMITS.quotesPerAccount);
    }
    const row = { number: counter!.number, text, game, createdAt: now, updatedAt: now };
    await tx.run((db, t) =>
      db.insert(t.quotes).values({ ...row, accountId, searchText: searchTextOf(text) }),
    );
    return row;
  });
}

export async function getQuote(s: DataStore, accountId: number, number: number): Promise<Quote | undefined> {
  if (!isRowKey(number)) return undefined;
  return await s.first((db, t) =>
    db
      .select(quoteColumns(t))
      .from(t.quotes)
      .where(and(eq(t.quotes.accountId, accountId), eq(t.quotes.number, number)))
      .limit(1),
  );
}

/**
 * One quote drawn with `random` (0 ≤ random() < 1, so tests and the demo can seed it), among those
 * whose text holds `matching` when given; undefined when none does.
 */
export async function randomQuote(
  s: DataStore,
  accountId: number,
  random: () => number,
  matching?: string,
): Promise<Quote | undefined> {
  const pattern = patternOf(matching);
  const total = await countQuotes(s, accountId, matching);
  if (pattern === null || total === 0) return undefined;
  const at = Math.min(total - 1, Math.floor(random() * total));
  const pick = (offset: number) =>
    s.first((db, t) =>
      db
        .select(quoteColumns(t))
        .from(t.quotes)
        .where(quotesOf(t, accountId, pattern))
        .orderBy(asc(t.quotes.number))
        .limit(1)
        .offset(offset),
    );
  // Quotes deleted since the count: the first one left will do.
  return (await pick(at)) ?? (await pick(0));
}

/** A page of quotes by number, optionally only those whose text holds `matching` (case-insensitive). */
export async function listQuotes(
  s: DataStore,
  accountId: number,
  request: QuotePageRequest = {},
): Promise<QuotePage> {
  const limit = request.limit ?? DEFAULT_PAGE;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    throw new ChatBotDataError("invalid_input", "limit", `A page holds 1 to ${MAX_PAGE} quotes.`);
  }
  const after = request.after ?? 0;
  if (after !== 0 && !isRowKey(after)) {
    throw new ChatBotDataError("invalid_input", "after", "A page starts after a quote number (0 or more).");
  }
  const pattern = patternOf(request.matching);
  if (pattern === null) return { items: [], next: null };
  const rows = await s.all((db, t) =>
    db
      .select(quoteColumns(t))
      .from(t.quotes)
      .where(and(quotesOf(t, accountId, pattern), gt(t.quotes.number, after)))
      .orderBy(asc(t.quotes.number))
      .limit(limit + 1),
  );
  const items = rows.slice(0, limit);
  return { items, next: rows.length > limit ? items.at(-1)!.number : null };
}

/** Every quote of the account, by number (the data export). */
export async function allQuotes(s: DataStore, accountId: number): Promise<Quote[]> {
  return await s.all((db, t) =>
    db
      .select(quoteColumns(t))
      .from(t.quotes)
      .where(eq(t.quotes.accountId, accountId))
      .orderBy(asc(t.quotes.number)),
  );
}

/** Changes a quote's text or game (null clears it); undefined when there is no such quote. */
export async function editQuote(
  s: DataStore,
  accountId: number,
  number: number,
  changes: { text?: string; game?: string | null },
  now: number,
): Promise<Quote | undefined> {
  const text = changes.text === undefined ? undefined : checkText(changes.text, "text", "A quote");
  const game = changes.game === undefined ? undefined : checkGame(changes.game);
  if (!isRowKey(number)) return undefined;
  return await s.first((db, t) =>
    db
      .update(t.quotes)
      .set({
        ...(text !== undefined ? { text, searchText: searchTextOf(text) } : {}),
        ...(game !== undefined ? { game } : {}),
        updatedAt: now,
      })
      .where(and(eq(t.quotes.accountId, accountId), eq(t.quotes.number, number)))
      .returning(quoteColumns(t)),
  );
}

/** Whether there was such a quote to delete; its number is not given again. */
export async function deleteQuote(s: DataStore, accountId: number, number: number): Promise<boolean> {
  if (!isRowKey(number)) return false;
  const row = await s.first((db, t) =>
    db
      .delete(t.quotes)
      .where(and(eq(t.quotes.accountId, accountId), eq(t.quotes.number, number)))
      .returning({ number: t.quotes.number }),
  );
  return row !== undefined;
}
