import type { Role } from "../../db/schema-enums.ts";

/**
 * The service document's §8 tables, as data. Quotas are requests per rolling 60 s window; TTLs are
 * milliseconds.
 */
export const WINDOW_MS = 60_000;
export const AUTH_WINDOW_MS = 300_000;

export interface RoleQuota {
  bot: number;
  heavy: number;
  commandCacheTtlMs: number;
}

export const ROLE_QUOTAS: Record<Role, RoleQuota> = {
  Default: { bot: 30, heavy: 5, commandCacheTtlMs: 60_000 },
  Pro: { bot: 60, heavy: 12, commandCacheTtlMs: 80_000 },
  VIP: { bot: 90, heavy: 20, commandCacheTtlMs: 120_000 },
  Partner: { bot: 120, heavy: 40, commandCacheTtlMs: 240_000 },
};

/** Panel session limit: the override when set, else max(500, bot × 10) (§8.2). */
export function panelLimit(role: Role, override: number | null): number {
  return override ?? Math.max(500, ROLE_QUOTAS[role].bot * 10);
}

export type PanelResource =
  | "chatters"
  | "clips"
  | "eligibility"
  | "analytics"
  | "profile"
  | "activity"
  | "live";

/** Cache lifetimes of panel data (§8.3), seconds → ms. */
export const PANEL_CACHE_TTL_MS: Record<PanelResource, Record<Role, number>> = {
  chatters: { Default: 45_000, Pro: 30_000, VIP: 20_000, Partner: 10_000 },
  clips: { Default: 60_000, Pro: 45_000, VIP: 30_000, Partner: 15_000 },
  eligibility: { Default: 90_000, Pro: 60_000, VIP: 40_000, Partner: 20_000 },
  analytics: { Default: 60_000, Pro: 45_000, VIP: 30_000, Partner: 15_000 },
  profile: { Default: 300_000, Pro: 225_000, VIP: 150_000, Partner: 75_000 },
  activity: { Default: 20_000, Pro: 15_000, VIP: 10_000, Partner: 5_000 },
  live: { Default: 45_000, Pro: 30_000, VIP: 15_000, Partner: 8_000 },
};

/**
 * Native chat (CONTRACT §6): each chatter is answered at most 3 times per 30 s in a channel (the
 * broadcaster and moderators excepted); the channel's own chat budget is the role's bot quota per
 * window, apart from the API key's.
 */
export const CHATTER_LIMIT = { limit: 3, windowMs: 30_000 } as const;

/** Per-IP limits (§8.4). */
export const IP_LIMITS = {
  anonymous: { limit: 100, windowMs: WINDOW_MS },
  publicPages: { limit: 300, windowMs: WINDOW_MS },
  failedAuth: { limit: 60, windowMs: WINDOW_MS },
  auth: { limit: 15, windowMs: AUTH_WINDOW_MS },
} as const;
