/** Set-Cookie values built by hand, so every attribute the contract names is visible here. */
export interface CookieAttributes {
  path?: string;
  maxAgeSeconds?: number;
  expires?: Date;
  httpOnly?: boolean;
  sameSite?: "Lax" | "Strict" | "None";
  secure?: boolean;
}

export function serializeCookie(name: string, value: string, attributes: CookieAttributes = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`];
  parts.push(`Path=${attributes.path ?? "/"}`);
  if (attributes.maxAgeSeconds !== undefined)
    parts.push(`Max-Age=${Math.max(0, Math.floor(attributes.maxAgeSeconds))}`);
  if (attributes.expires) parts.push(`Expires=${attributes.expires.toUTCString()}`);
  if (attributes.httpOnly ?? true) parts.push("HttpOnly");
  parts.push(`SameSite=${attributes.sameSite ?? "Lax"}`);
  if (attributes.secure) parts.push("Secure");
  return parts.join("; ");
}

type HeaderBag = { headers: Record<string, unknown> };

/** Adds a Set-Cookie header without dropping ones set earlier in the request. */
export function appendSetCookie(set: HeaderBag, cookie: string): void {
  const existing = set.headers["set-cookie"];
  if (existing === undefined) set.headers["set-cookie"] = [cookie];
  else if (Array.isArray(existing)) existing.push(cookie);
  else set.headers["set-cookie"] = [String(existing), cookie];
}
