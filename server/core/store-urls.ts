/**
 * The URLs of the shared stores (CONTRACT §2): `--database-url` for PostgreSQL, `--redis-url` for
 * Redis. Checked at start-up so a typo stops cuebot with one line instead of failing on the first
 * request. URLs carry passwords: nothing here ever repeats one (see `redactUrl`).
 */

export type StoreUrlProblem = { ok: true; url: string } | { ok: false; problem: string };

const DATABASE_SCHEMES = ["postgres:", "postgresql:"];
const REDIS_SCHEMES = ["redis:", "rediss:", "redis+unix:"];

/** The URL with its password (and any `password` parameter) replaced by `***`, safe to log. */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "(not a URL)";
  }
  if (url.password) url.password = "***";
  if (url.searchParams.has("password")) url.searchParams.set("password", "***");
  return url.href;
}

/** " (got mysql://)", naming what was given instead, when the value had a scheme at all. */
function got(url: URL, text: string): string {
  return text.trim().startsWith(`${url.protocol}//`) ? ` (got ${url.protocol}//)` : "";
}

function parse(text: string): URL | null {
  try {
    return new URL(text.trim());
  } catch {
    return null;
  }
}

function hasHost(url: URL): boolean {
  // "postgres://host/db" has a host; so has "postgres:///db?host=/run/postgresql" (a unix socket).
  return url.hostname !== "" || (url.searchParams.get("host") ?? "").startsWith("/");
}

/** A PostgreSQL connection URL: postgres:// or postgresql://, with a host. */
export function checkDatabaseUrl(text: string): StoreUrlProblem {
  const url = parse(text);
  if (!url)
    return { ok: false, problem: "is not a URL (expected postgres://user:password@host:5432/database)" };
  if (!DATABASE_SCHEMES.includes(url.protocol)) {
    return { ok: false, problem: `must start with postgres:// or postgresql://${got(url, text)}` };
  }
  if (!hasHost(url))
    return { ok: false, problem: "names no host (expected postgres://user:password@host:5432/database)" };
  if (url.port !== "" && Number(url.port) === 0) return { ok: false, problem: "port 0 is not a server port" };
  return { ok: true, url: text.trim() };
}

/** A Redis URL: redis:// or rediss:// (TLS) with a host and an optional /<db number>, or redis+unix:///path. */
export function checkRedisUrl(text: string): StoreUrlProblem {
  const url = parse(text);
  if (!url) return { ok: false, problem: "is not a URL (expected redis://host:6379)" };
  if (!REDIS_SCHEMES.includes(url.protocol)) {
    return {
      ok: false,
      problem: `must start with redis://, rediss:// or redis+unix://${got(url, text)}`,
    };
  }
  if (url.protocol === "redis+unix:") {
    if (url.hostname !== "" || !url.pathname.startsWith("/") || url.pathname.length < 2) {
      return { ok: false, problem: "must name the socket path (redis+unix:///run/redis/redis.sock)" };
    }
    return { ok: true, url: text.trim() };
  }
  if (url.hostname === "") return { ok: false, problem: "names no host (expected redis://host:6379)" };
  if (url.port !== "" && Number(url.port) === 0) return { ok: false, problem: "port 0 is not a server port" };
  if (url.pathname !== "" && url.pathname !== "/" && !/^\/\d+$/.test(url.pathname)) {
    return { ok: false, problem: "the path must be a database number (redis://host:6379/0)" };
  }
  return { ok: true, url: text.trim() };
}
