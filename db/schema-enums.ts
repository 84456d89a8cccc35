/**
 * The values some text columns may hold, shared by both dialects' schemas (db/sqlite/schema.ts,
 * db/pg/schema.ts) and by the code that reads them.
 */

export const ROLES = ["Default", "Pro", "VIP", "Partner"] as const;
export type Role = (typeof ROLES)[number];

export const CHAT_STATES = ["off", "needs_consent", "connecting", "connected", "error"] as const;
export type ChatState = (typeof CHAT_STATES)[number];
