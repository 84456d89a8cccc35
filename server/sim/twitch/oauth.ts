import type { Clock } from "../../core/clock.ts";
import { json } from "./helix/http.ts";
import type { TwitchSimKnobs } from "./knobs.ts";
import { APP_TOKEN_TTL_S, randomToken, type TokenStore, USER_TOKEN_TTL_S } from "./tokens.ts";
import type { SimWorld } from "./world.ts";

/**
 * The simulated identity provider (id.twitch.tv), faithful to reference/twitch.md §1.9: form-encoded
 * token requests, `scope` as an array, `{status, message}` ID-service errors, single-use codes,
 * rotating refresh tokens, a consent page for demo mode, validation and revocation.
 */

export interface SimClient {
  id: string;
  secret: string;
  /** Exact redirect URIs; `"loopback"` accepts any http://localhost or 127.0.0.1 URI (demo mode). */
  redirectUris: string[] | "loopback";
}

export interface IdentityProvider {
  client: SimClient;
  world: SimWorld;
  clock: Clock;
  knobs: TwitchSimKnobs;
  tokens: TokenStore;
}

const CODE_TTL_MS = 10 * 60_000;

/** ID-service errors carry `{status, message}` and usually no `error` key (reference §1.8). */
export const idError = (status: number, message: string) => json(status, { status, message });

/** A user by login, in any case. */
export const findUser = (world: SimWorld, login: string) =>
  world.users.find((u) => u.login === login.toLowerCase());

/** Answers the ID service's `/oauth2/*` endpoints; null for any other path or method. */
export async function handleOAuth(
  idp: IdentityProvider,
  request: Request,
  url: URL,
): Promise<Response | null> {
  if (url.pathname === "/oauth2/authorize" && request.method === "GET") return authorize(idp, url);
  if (url.pathname === "/oauth2/token") {
    if (request.method !== "POST") return new Response("404 page not found", { status: 404 });
    return tokenGrant(idp, await readForm(request, url));
  }
  if (url.pathname === "/oauth2/validate" && request.method === "GET") return validate(idp, request);
  if (url.pathname === "/oauth2/revoke" && request.method === "POST")
    return revoke(idp, await readForm(request, url));
  return null;
}

/** A user-token grant's answer: `scope` as an array, `token_type` lowercase (reference §1.2). */
function userTokenResponse(
  issued: { accessToken: string; refreshToken: string },
  scopes: string[],
): Response {
  return json(200, {
    access_token: issued.accessToken,
    refresh_token: issued.refreshToken,
    expires_in: USER_TOKEN_TTL_S,
    scope: scopes,
    token_type: "bearer",
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function readForm(request: Request, url: URL): Promise<URLSearchParams> {
  const form = new URLSearchParams(url.search);
  const type = request.headers.get("content-type") ?? "";
  if (request.method === "POST" && type.includes("application/x-www-form-urlencoded")) {
    for (const [k, v] of new URLSearchParams(await request.text())) form.set(k, v);
  }
  return form;
}

function redirectAllowed(client: SimClient, uri: string): boolean {
  if (client.redirectUris === "loopback") {
    try {
      const u = new URL(uri);
      return u.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname);
    } catch {
      return false;
    }
  }
  return client.redirectUris.includes(uri);
}

function authorize(idp: IdentityProvider, url: URL): Response {
  const { client, knobs } = idp;
  const clientId = url.searchParams.get("client_id");
  const redirectUri = url.searchParams.get("redirect_uri") ?? "";
  if (clientId !== client.id) return idError(400, "invalid client");
  if (!redirectAllowed(client, redirectUri))
    return idError(400, "Parameter redirect_uri does not match registered URI");
  if (url.searchParams.get("response_type") !== "code") return idError(400, "invalid response type");
  const as = url.searchParams.get("as") ?? knobs.autoApproveAs;
  const decision = url.searchParams.get("decision") ?? (knobs.deny ? "deny" : as ? "approve" : null);
  const state = url.searchParams.get("state");
  const back = new URL(redirectUri);
  if (decision === "deny") {
    back.searchParams.set("error", "access_denied");
    back.searchParams.set("error_description", "The user denied you access");
    if (state !== null) back.searchParams.set("state", state);
    return Response.redirect(back.href, 302);
  }
  const scopes = (url.searchParams.get("scope") ?? "").split(/[ +]/).filter(Boolean);
  const user = as ? findUser(idp.world, as) : undefined;
  if (decision === "approve" && user) {
    const code = randomToken(20);
    idp.tokens.codes.set(code, {
      clientId: client.id,
      redirectUri,
      userId: user.id,
      scopes,
      expiresAt: idp.clock.now() + CODE_TTL_MS,
    });
    back.searchParams.set("code", code);
    back.searchParams.set("scope", scopes.join(" "));
    if (state !== null) back.searchParams.set("state", state);
    return Response.redirect(back.href, 302);
  }
  return consentPage(idp.world, url, scopes);
}

/** What a person sees in demo mode: pick a simulated account, or deny. */
function consentPage(world: SimWorld, url: URL, scopes: string[]): Response {
  const link = (extra: Record<string, string>) => {
    const u = new URL(url.href);
    for (const [k, v] of Object.entries(extra)) u.searchParams.set(k, v);
    return escapeHtml(`${u.pathname}${u.search}`);
  };
  const rows = world.users
    .map(
      (u) =>
        `<li><a class="approve" href="${link({ as: u.login, decision: "approve" })}">Authorize as <b>${escapeHtml(u.display_name)}</b></a></li>`,
    )
    .join("");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Simulated Twitch — authorize</title>
<style>body{font:16px system-ui;max-width:40rem;margin:3rem auto;padding:0 1rem}a{color:#9146ff}li{margin:.5rem 0}</style></head>
<body><h1>Simulated Twitch</h1><p>This is cuebot's built-in identity provider simulator (demo mode). The app asks for:</p>
<p><code>${escapeHtml(scopes.join(" "))}</code></p><ul>${rows}</ul>
<p><a id="deny" href="${link({ decision: "deny" })}">Deny</a></p></body></html>`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}

function tokenGrant(idp: IdentityProvider, form: URLSearchParams): Response {
  const { client, tokens } = idp;
  const grant = form.get("grant_type");
  const clientId = form.get("client_id");
  if (!clientId) return idError(400, "missing client id");
  if (clientId !== client.id) return idError(400, "invalid client");
  const secret = form.get("client_secret");
  if (!secret) return idError(400, "missing client secret");
  if (secret !== client.secret) return idError(403, "invalid client secret");
  if (grant === "authorization_code") {
    const code = form.get("code") ?? "";
    const entry = tokens.codes.get(code);
    tokens.codes.delete(code); // single use, even when the rest of the request is wrong
    if (!entry || entry.expiresAt < idp.clock.now() || entry.clientId !== clientId) {
      return idError(400, "Invalid authorization code");
    }
    if (form.get("redirect_uri") !== entry.redirectUri) {
      return idError(400, "Parameter redirect_uri does not match registered URI");
    }
    return userTokenResponse(tokens.issueUser(clientId, entry.userId, entry.scopes), entry.scopes);
  }
  if (grant === "refresh_token") {
    const presented = form.get("refresh_token");
    if (!presented) return idError(400, "missing refresh token");
    const entry = tokens.refresh.get(presented);
    if (!entry || idp.knobs.failRefresh) {
      return json(400, { error: "Bad Request", status: 400, message: "Invalid refresh token" });
    }
    tokens.refresh.delete(presented); // rotation: the old refresh token dies
    return userTokenResponse(tokens.issueUser(clientId, entry.userId, entry.scopes), entry.scopes);
  }
  if (grant === "client_credentials") {
    return json(200, {
      access_token: tokens.issueApp(clientId),
      expires_in: APP_TOKEN_TTL_S,
      token_type: "bearer",
    });
  }
  return idError(400, "unsupported grant type");
}

function validate(idp: IdentityProvider, request: Request): Response {
  const { clock } = idp;
  const header = request.headers.get("authorization") ?? "";
  const match = /^(OAuth|Bearer) (.+)$/i.exec(header);
  if (!match) return idError(401, "missing authorization token");
  const entry = idp.tokens.access.get(match[2]!);
  if (!entry || entry.expiresAt <= clock.now()) return idError(401, "invalid access token");
  const user = entry.userId ? idp.world.users.find((u) => u.id === entry.userId) : undefined;
  return json(200, {
    client_id: entry.clientId,
    ...(user ? { login: user.login, user_id: user.id } : {}),
    scopes: entry.scopes,
    expires_in: Math.max(0, Math.floor((entry.expiresAt - clock.now()) / 1000)),
  });
}

function revoke(idp: IdentityProvider, form: URLSearchParams): Response {
  const { tokens } = idp;
  const clientId = form.get("client_id");
  if (clientId !== idp.client.id) return idError(404, "client does not exist");
  const presented = form.get("token");
  if (!presented) return idError(400, "missing oauth token");
  if (!tokens.access.has(presented) && !tokens.refresh.has(presented)) return idError(400, "Invalid token");
  const entry = tokens.access.get(presented);
  tokens.access.delete(presented);
  tokens.refresh.delete(presented);
  tokens.revoked.add(presented);
  // Revoking the access token ends the grant: its refresh tokens die too.
  if (entry?.userId) {
    for (const [k, v] of tokens.refresh)
      if (v.userId === entry.userId && v.clientId === entry.clientId) tokens.refresh.delete(k);
  }
  return new Response(null, { status: 200 });
}
