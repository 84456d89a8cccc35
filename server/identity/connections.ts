/**
 * A running server's live connections of one feature (native chat's, the alerts'), as identity sees
 * them: after a login, a consent, a linked bot or a deletion, `sync` makes the account's connection
 * match what is now stored for it. The runtime's `chat` and `alertsStatus` are these.
 */
export interface AccountConnections {
  sync(accountId: number): Promise<void>;
}

/** The connections a change to an account's grant or to the account itself concerns. */
export interface FeatureConnections {
  readonly chat: AccountConnections;
  readonly alertsStatus: AccountConnections;
  /** Moderation reads its settings and grants again (moderation/context.ts `ModerationHandle`). */
  readonly moderation: { changed(accountId: number): void };
}
