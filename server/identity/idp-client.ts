// arctic's OAuth 2.0 helpers alone: its index re-exports all ~70 providers, which would load (and stay
// on the idle server's heap) for this one function. The package has no "exports" map, so the path is public.
import { generateState } from "arctic/dist/oauth2.js";
import type { Config } from "../core/config.ts";

/**
 * Our own small client for the identity provider's OAuth endpoints (authorize, token, validate,
 * revoke) under a configurable base URL. arctic's Twitch provider hard-codes its URLs and its generic
 * client authenticates with HTTP Basic, which Twitch refuses (reference/twitch.md §4).
 */

export interface ProviderTokenSet {
  accessToken: string;
  refreshToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
  /** Granted scopes; Twitch sends them as a JSON array. */
  scopes: string[];
}

export interface TokenValidation {
  clientId: string;
  login: string | null;
  userId: string | null;
  scopes: string[];
  expiresIn: number;
}

/**
 * `unavailable`: the provider could not be reached or failed (5xx, timeout) — try again later.
 * `rejected`: the provider refused the request (bad code, revoked refresh token, bad client).
 */
export class IdentityProviderError extends Error {
  constructor(
    readonly kind: "unavailable" | "rejected",
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

export interface IdentityProviderOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export function newOAuthState(): string {
  return generateState();
}

/** The OAuth client for the configured application, or null when no provider credentials are set. */
export function identityProviderFor(config: Config): IdentityProviderClient | null {
  const { clientId, clientSecret, authUrl } = config.twitch;
  if (!clientId || !clientSecret) return null;
  return new IdentityProviderClient({ baseUrl: authUrl, clientId, clientSecret });
}

export class IdentityProviderClient {
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;

  constructor(private readonly options: IdentityProviderOptions) {
    this.#fetch = options.fetch ?? fetch;
    this.#timeoutMs = options.timeoutMs ?? 5000;
  }

  get clientId(): string {
    return this.options.clientId;
  }

  authorizationUrl(params: {
    redirectUri: string;
    state: string;
    scopes: string[];
    forceVerify?: boolean;
  }): string {
    const url = new URL(`${this.options.baseUrl}/oauth2/authorize`);
    url.searchParams.set("client_id", this.options.clientId);
    url.searchParams.set("redirect_uri", params.redirectUri);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("scope", params.scopes.join(" "));
    url.searchParams.set("state", params.state);
    if (params.forceVerify) url.searchParams.set("force_verify", "true");
    return url.href;
  }

  async exchangeCode(code: string, redirectUri: string): Promise<ProviderTokenSet> {
    const body = await this.#post("/oauth2/token", {
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
      code,
      grant_type: "authorization_code",
      redirect_uri: redirectUri,
    });
    return parseTokenSet(body);
  }

  /** The provider may rotate the refresh token: always persist the one returned. */
  async refresh(refreshToken: string): Promise<ProviderTokenSet> {
    const body = await this.#post("/oauth2/token", {
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
      grant_type: "refresh_token",
      refresh_token: refreshToken,
    });
    return parseTokenSet(body, refreshToken);
  }

  async appAccessToken(): Promise<{ accessToken: string; expiresIn: number }> {
    const body = await this.#post("/oauth2/token", {
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
      grant_type: "client_credentials",
    });
    const accessToken = stringField(body, "access_token");
    return { accessToken, expiresIn: numberField(body, "expires_in", 3600) };
  }

  /** Null when the token no longer validates (401); throws when the provider cannot answer. */
  async validate(accessToken: string): Promise<TokenValidation | null> {
    const response = await this.#send(`${this.options.baseUrl}/oauth2/validate`, {
      headers: { Authorization: `OAuth ${accessToken}` },
    });
    if (response.status === 401) return null;
    const body = await readBody(response);
    if (!response.ok) throw providerFailure(response.status, body);
    const scopes = Array.isArray(body.scopes)
      ? body.scopes.filter((s): s is string => typeof s === "string")
      : [];
    return {
      clientId: typeof body.client_id === "string" ? body.client_id : "",
      login: typeof body.login === "string" ? body.login : null,
      userId: typeof body.user_id === "string" ? body.user_id : null,
      scopes,
      expiresIn: numberField(body, "expires_in", 0),
    };
  }

  /** Revoking a token that is already invalid counts as done. */
  async revoke(token: string): Promise<void> {
    const response = await this.#send(`${this.options.baseUrl}/oauth2/revoke`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: this.options.clientId, token }),
    });
    if (response.ok || response.status === 400) return;
    throw providerFailure(response.status, await readBody(response));
  }

  async #post(path: string, form: Record<string, string>): Promise<Record<string, unknown>> {
    const response = await this.#send(`${this.options.baseUrl}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams(form),
    });
    const body = await readBody(response);
    if (!response.ok) throw providerFailure(response.status, body);
    return body;
  }

  async #send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await this.#fetch(url, { ...init, signal: AbortSignal.timeout(this.#timeoutMs) });
    } catch (error) {
      const timedOut = (error as Error).name === "TimeoutError";
      throw new IdentityProviderError(
        "unavailable",
        null,
        timedOut
          ? "the identity provider did not answer in time"
          : "the identity provider could not be reached",
      );
    }
  }
}

async function readBody(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Twitch's ID service answers `{status, message}`, sometimes with `error`; branch on the status only. */
function providerFailure(status: number, body: Record<string, unknown>): IdentityProviderError {
  const message = typeof body.message === "string" && body.message ? body.message : `HTTP ${status}`;
  const kind = status >= 500 || status === 429 ? "unavailable" : "rejected";
  return new IdentityProviderError(kind, status, `identity provider answered ${status}: ${message}`);
}

function parseTokenSet(body: Record<string, unknown>, previousRefresh?: string): ProviderTokenSet {
  const scope = body.scope;
  const scopes = Array.isArray(scope)
    ? scope.filter((s): s is string => typeof s === "string")
    : typeof scope === "string"
      ? scope.split(" ").filter(Boolean)
      : [];
  const refreshToken =
    typeof body.refresh_token === "string" && body.refresh_token
      ? body.refresh_token
      : (previousRefresh ?? "");
  if (!refreshToken)
    throw new IdentityProviderError("rejected", 200, "the identity provider sent no refresh token");
  return {
    accessToken: stringField(body, "access_token"),
    refreshToken,
    expiresIn: numberField(body, "expires_in", 3600),
    scopes,
  };
}

function stringField(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== "string" || !value) {
    throw new IdentityProviderError("unavailable", 200, `the identity provider's answer lacks ${key}`);
  }
  return value;
}

function numberField(body: Record<string, unknown>, key: string, fallback: number): number {
  const value = body[key];
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
