/** What a sealed value is for; each purpose gets its own key so one can never open another's box. */
export type SealPurpose = "api-key" | "overlay-token" | "oauth-token" | "chat-bot-token" | "obs-password";

/**
 * How stored secrets (API keys, overlay tokens, Twitch tokens) are sealed at rest and opened again,
 * bound to their owner (the account id) so a sealed value copied onto another row does not open.
 * server/core/secrets.ts implements it (SecretBox); the query code only hands values through it.
 */
export interface Sealer {
  seal(purpose: SealPurpose, plaintext: string, owner: string | number): string;
  open(purpose: SealPurpose, sealed: string, owner: string | number): string;
}
