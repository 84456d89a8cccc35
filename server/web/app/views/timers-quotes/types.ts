// The shapes of the panel's timer and quote routes (server/panel/timers.ts, server/panel/quotes.ts),
// as this view reads them. Times are milliseconds since the epoch.
import { CHAT_BOT_LIMITS } from "../../../../vocabulary.ts";

export interface Timer {
  id: number;
  name: string;
  message: string;
  /** 5–60. */
  intervalMinutes: number;
  /** Chat lines that must come between two posts (0–100, default 2). */
  minChatLines: number;
  enabled: boolean;
  lastPostedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface TimerList {
  items: Timer[];
  /** How many timers a channel may have. */
  limit: number;
}

/** What an add or an edit of a timer sends. */
export interface TimerFields {
  name: string;
  message: string;
  intervalMinutes: number;
  minChatLines: number;
  enabled: boolean;
}

export interface Quote {
  number: number;
  text: string;
  game: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface QuotePage {
  items: Quote[];
  /** The `after` of the next page, or null on the last one. */
  next: number | null;
  /** How many quotes the search matches (all of them without one). */
  total: number;
  /** How many quotes a channel may keep. */
  limit: number;
}

/** What an add or an edit of a quote sends; a null game clears it. */
export interface QuoteFields {
  text: string;
  game: string | null;
}

/** The limits the server checks (cuebot's vocabulary), so the form says them before a round trip. */
export const TIMER_LIMITS = {
  nameLength: CHAT_BOT_LIMITS.timerNameLength,
  textLength: CHAT_BOT_LIMITS.textLength,
  interval: { ...CHAT_BOT_LIMITS.intervalMinutes, default: 15 },
  chatLines: CHAT_BOT_LIMITS.minChatLines,
} as const;

export const QUOTE_LIMITS = {
  textLength: CHAT_BOT_LIMITS.textLength,
  gameLength: CHAT_BOT_LIMITS.gameLength,
  pageSize: 20,
} as const;
