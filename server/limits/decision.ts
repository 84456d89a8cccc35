/**
 * What a limiter answers for one request. Every limiter in cuebot returns this shape so the HTTP
 * layer turns any of them into the same headers (CONTRACT §7).
 */
export interface LimitDecision {
  allowed: boolean;
  /** The limit in force for this key right now (it may change between calls when a role changes). */
  limit: number;
  /** Requests left in the window after this one (0 when refused). */
  remaining: number;
  /** Whole seconds until a request would be admitted, ≥ 1 when refused; 0 when allowed. */
  retryAfterSeconds: number;
}

/** Rounds a wait up to whole seconds, never below 1: `Retry-After: 0` would invite an instant retry. */
export function waitToRetryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}

export function allowedDecision(limit: number, remaining: number): LimitDecision {
  return { allowed: true, limit, remaining: Math.max(0, remaining), retryAfterSeconds: 0 };
}

export function refusedDecision(limit: number, waitMs: number): LimitDecision {
  return { allowed: false, limit, remaining: 0, retryAfterSeconds: waitToRetryAfterSeconds(waitMs) };
}
