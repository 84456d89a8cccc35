/**
 * The values some text columns may hold, shared by both dialects' schemas (db/sqlite/schema.ts,
 * db/pg/schema.ts) and by the code that reads them.
 */

export const ROLES = ["Default", "Pro", "VIP", "Partner"] as const;
export type Role = (typeof ROLES)[number];

/** A role as typed by a person (any case, spaces around it allowed), or null. */
export function parseRole(input: string): Role | null {
  return ROLES.find((role) => role.toLowerCase() === input.trim().toLowerCase()) ?? null;
}

export const CHAT_STATES = ["off", "needs_consent", "connecting", "connected", "error"] as const;
export type ChatState = (typeof CHAT_STATES)[number];
