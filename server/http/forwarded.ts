/**
 * The scheme and host a browser used to reach cuebot, as far as the server can tell. A proxy that
 * cuebot trusts (CUEBOT_TRUST_PROXY) may say so in X-Forwarded-Host / X-Forwarded-Proto (nginx's
 * default `proxy_pass` sends the upstream's name as Host, so Host alone is not what the browser
 * typed); from any other peer those headers are ignored and Host is the answer. `null` = not known.
 */
export interface SeenOrigin {
  host: string | null;
  /** "http" or "https", lowercase; null when no trusted proxy said. */
  proto: string | null;
}

/** The right-most entry of a comma-separated forwarding header: the one the nearest proxy wrote. */
function nearestEntry(value: string | null): string | null {
  if (value === null) return null;
  const entry = value.slice(value.lastIndexOf(",") + 1).trim();
  return entry === "" ? null : entry.toLowerCase();
}

export function seenOrigin(request: Request, fromTrustedProxy: boolean): SeenOrigin {
  const headers = request.headers;
  const host = headers.get("host")?.toLowerCase() ?? null;
  if (!fromTrustedProxy) return { host, proto: null };
  return {
    host: nearestEntry(headers.get("x-forwarded-host")) ?? host,
    proto: nearestEntry(headers.get("x-forwarded-proto")),
  };
}

/** Whether what the browser used is the public URL's origin (unknown parts are given the benefit). */
export function isPublicOrigin(seen: SeenOrigin, publicUrl: URL): boolean {
  if (seen.host !== null && seen.host !== publicUrl.host.toLowerCase()) return false;
  return seen.proto === null || `${seen.proto}:` === publicUrl.protocol;
}
