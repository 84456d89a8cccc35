import { randomBytes } from "node:crypto";
import type { Clock } from "../../core/clock.ts";

/**
 * The tokens the simulated identity provider hands out: user and app access tokens, rotating refresh
 * tokens, single-use authorization codes, and what was revoked (reference/twitch.md §1).
 */

export interface AccessToken {
  clientId: string;
  userId: string | null;
  scopes: string[];
  expiresAt: number;
}

export interface RefreshToken {
  clientId: string;
  userId: string;
  scopes: string[];
}

export interface AuthCode {
  clientId: string;
  redirectUri: string;
  userId: string;
  scopes: string[];
  expiresAt: number;
}

export const USER_TOKEN_TTL_S = 14_400;
export const APP_TOKEN_TTL_S = 5_011_200;

export const randomToken = (bytes = 15) =>
  randomBytes(bytes).toString("base64url").toLowerCase().replace(/[-_]/g, "x");

export class TokenStore {
  readonly access = new Map<string, AccessToken>();
  readonly refresh = new Map<string, RefreshToken>();
  readonly codes = new Map<string, AuthCode>();
  readonly revoked = new Set<string>();

  constructor(private readonly clock: Clock) {}

  /** A user access token and its refresh token. */
  issueUser(
    clientId: string,
    userId: string,
    scopes: string[],
  ): { accessToken: string; refreshToken: string } {
    const accessToken = randomToken();
    const refreshToken = `${randomToken(25)}/${randomToken(4)}=`;
    this.access.set(accessToken, {
      clientId,
      userId,
      scopes,
      expiresAt: this.clock.now() + USER_TOKEN_TTL_S * 1000,
    });
    this.refresh.set(refreshToken, { clientId, userId, scopes });
    return { accessToken, refreshToken };
  }

  /** An app access token (client credentials): no user, no scopes. */
  issueApp(clientId: string): string {
    const accessToken = randomToken();
    this.access.set(accessToken, {
      clientId,
      userId: null,
      scopes: [],
      expiresAt: this.clock.now() + APP_TOKEN_TTL_S * 1000,
    });
    return accessToken;
  }

  /** Expires one access token now (it stops validating; its refresh token still works). */
  expire(token: string): void {
    const entry = this.access.get(token);
    if (entry) entry.expiresAt = this.clock.now() - 1;
  }

  /** The user disconnects the app: every token of theirs dies, refresh tokens included. */
  disconnectUser(userId: string): void {
    for (const [k, v] of this.access) if (v.userId === userId) this.access.delete(k);
    for (const [k, v] of this.refresh) if (v.userId === userId) this.refresh.delete(k);
  }
}
