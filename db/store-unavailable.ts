/**
 * A shared store (Redis, or the PostgreSQL database) did not answer in time or at all: offline,
 * reconnecting, restarted, frozen. Callers decide per feature what that means (a limiter fails local
 * or closed, a cache falls back to the database; a request is answered 503); they never see the
 * client library's own error classes.
 */
export class StoreUnavailableError extends Error {
  readonly code = "store_unavailable";

  constructor(
    readonly store: "redis" | "postgres",
    cause: unknown,
  ) {
    super(`${store} is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "StoreUnavailableError";
  }
}
