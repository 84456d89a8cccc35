/**
 * The quote lines of native chat (issue 24; reference/chat-bot-commands.md §5): `!quote` (random),
 * `!quote 12`, `!quote <words>` (a random quote holding them), `!addquote <text>` and
 * `!delquote <n>` (moderators and the broadcaster), read into a typed request, and the one-line
 * replies. Pure: the store and who may change quotes are the service's business. A reply never
 * repeats a searched word: a search that finds nothing says so in a fixed sentence.
 */
import type { Quote } from "../../db/quotes.ts";

/** The triggers this module reads; a custom command cannot take these names. */
export const QUOTE_TRIGGERS: readonly string[] = ["quote", "addquote", "delquote"];

export type QuoteRequest =
  | { kind: "random" }
  | { kind: "number"; number: number }
  | { kind: "search"; words: string }
  | { kind: "add"; text: string }
  | { kind: "delete"; number: number }
  | { kind: "usage"; reply: string };

export const QUOTE_USAGE = {
  add: "Usage: !addquote text of the quote",
  delete: "Usage: !delquote number",
} as const;

/** `12` or `#12`: a quote number as typed; anything else is not one. */
const NUMBER = /^#?(\d{1,9})$/u;

/**
 * The request a quote line makes: `trigger` is the lower-case word after `!`, `rest` what follows
 * it (trimmed). Null when the trigger is not a quote trigger.
 */
export function parseQuoteLine(trigger: string, rest: string): QuoteRequest | null {
  const number = NUMBER.exec(rest);
  switch (trigger) {
    case "quote":
      if (rest === "") return { kind: "random" };
      return number ? { kind: "number", number: Number(number[1]) } : { kind: "search", words: rest };
    case "addquote":
      return rest === "" ? { kind: "usage", reply: QUOTE_USAGE.add } : { kind: "add", text: rest };
    case "delquote":
      return number && Number(number[1]) > 0
        ? { kind: "delete", number: Number(number[1]) }
        : { kind: "usage", reply: QUOTE_USAGE.delete };
    default:
      return null;
  }
}

/** Whether a request changes the quotes (moderators and the broadcaster only). */
export function changesQuotes(request: QuoteRequest): boolean {
  return request.kind === "add" || request.kind === "delete" || request.kind === "usage";
}

/** The day a quote was saved, as `26 Nov 2026` (UTC: the same wherever the server runs). */
function dayOf(at: number): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  }).format(at);
}

export const QUOTE_REPLIES = {
  shown: (quote: Quote) =>
    `Quote #${quote.number}: "${quote.text}" (${quote.game ? `${quote.game}, ` : ""}${dayOf(quote.createdAt)})`,
  none: () => "There are no quotes yet; moderators add one with !addquote.",
  noMatch: () => "No quote holds those words.",
  notFound: (number: number) => `Quote #${number} does not exist.`,
  added: (quote: Quote) => `Quote #${quote.number} has been added.`,
  deleted: (number: number) => `Quote #${number} has been deleted.`,
} as const;
