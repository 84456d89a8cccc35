/**
 * How a game provider call fails (server/game/client.ts): the player has no such data, or the
 * provider cannot help right now. Its own module, so the budget (budget.ts) refuses a call in the
 * same words without importing the client that draws on it.
 */

/** Why a provider call did not give data: the player has none, or the provider could not answer. */
export type ProviderFailureKind =
  | "player_not_found"
  | "no_region"
  | "no_recent_matches"
  | "no_rank"
  | "key_missing"
  | "key_refused"
  | "rate_limited"
  | "timeout"
  | "unavailable"
  | "malformed";

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    readonly providerStatus: number | null = null,
    readonly providerCode: number | null = null,
    /** When known: how long until a call could succeed (the budget's wait, the provider's reset). */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }

  /** Not-found kinds say something true about the player; the rest say the provider is unavailable. */
  get isNotFound(): boolean {
    return (
      this.kind === "player_not_found" ||
      this.kind === "no_region" ||
      this.kind === "no_recent_matches" ||
      this.kind === "no_rank"
    );
  }
}
