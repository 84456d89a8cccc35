import type { LogFormat, LogLevel } from "./config.ts";

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** Logs at warn level only the first time `key` is seen. */
  warnOnce(key: string, msg: string, fields?: LogFields): void;
  /** Whether a line at `level` would be written (skip building costly fields when not). */
  isEnabled(level: LogLevel): boolean;
}

/** Field names whose values are secrets, wherever they appear (`x-api-key` too: headers get logged). */
const SECRET_FIELD = /secret|password|token|api[-_]?key|authorization|cookie|^code$|^key$/i;
/** Query parameters that carry credentials (chat bots and OBS can only send them in the URL). */
const SECRET_QUERY = /^(api[-_]?key|token|access_token|refresh_token|code|state|client_secret)$/i;

export const REDACTED = "[redacted]";

/**
 * The overlay page carries its token in the path (`/overlay/<token>`, CONTRACT §6): a path that starts
 * there, at the start of the text, after a space or quote, or after a URL's host.
 */
const OVERLAY_PAGE_PATH = /(^|[\s"'(]|\/\/[^/\s"']+)\/overlay\/[^/?#\s"']+/g;

/** Replaces credentials in a URL or path (`/x?apiKey=…` → `/x?apiKey=[redacted]`, `/overlay/[redacted]`). */
export function redactUrl(url: string): string {
  return url
    .replace(/([?&;])([^=&;#]+)=([^&;#]*)/g, (whole, sep: string, name: string) =>
      SECRET_QUERY.test(parameterName(name)) ? `${sep}${name}=${REDACTED}` : whole,
    )
    .replace(OVERLAY_PAGE_PATH, `$1/overlay/${REDACTED}`);
}

/** A query parameter's name as a server might read it: decoded, without PHP-style brackets (`apiKey[]`). */
function parameterName(name: string): string {
  const decoded = percentDecoded(name);
  const bracket = decoded.indexOf("[");
  return bracket === -1 ? decoded : decoded.slice(0, bracket);
}

const HEX_DIGIT = /^[0-9a-f]$/i;

/** Whether `chars` ends with a valid escape (`%` and two hex digits). */
function endsWithEscape(chars: readonly string[]): boolean {
  const n = chars.length;
  return (
    n >= 3 && chars[n - 3] === "%" && HEX_DIGIT.test(chars[n - 2] ?? "") && HEX_DIGIT.test(chars[n - 1] ?? "")
  );
}

/**
 * Every valid `%XX` decoded on its own (a malformed one stays as it is and stops nothing), again and
 * again until none is left: `%2525256F` → `o`, `%25%36%46` → `o`. Done in one pass: an escape is
 * decoded as soon as its last character is in place, and the character it gives may complete the
 * escape before it. Each decoding shortens the text, so the work stays linear in its length.
 */
function percentDecoded(text: string): string {
  if (!text.includes("%")) return text;
  const chars: string[] = [];
  for (const char of text) {
    chars.push(char);
    while (endsWithEscape(chars)) {
      const code = Number.parseInt(`${chars[chars.length - 2]}${chars[chars.length - 1]}`, 16);
      chars.length -= 3;
      chars.push(String.fromCharCode(code));
    }
  }
  return chars.join("");
}

/**
 * A path as a router might come to read it: percent-decoded, backslashes and repeated slashes as one
 * "/", `;…` parameters dropped from each segment, dot segments resolved, lowercase.
 */
function normalisedPath(path: string): string {
  const segments: string[] = [];
  for (const withParameters of percentDecoded(path).split(/[\\/]+/)) {
    const semicolon = withParameters.indexOf(";");
    const segment = semicolon === -1 ? withParameters : withParameters.slice(0, semicolon);
    if (segment === "..") segments.pop();
    else if (segment !== "." && segment !== "") segments.push(segment);
  }
  return `/${segments.join("/")}`.toLowerCase();
}

const OVERLAY_PAGE_PREFIX = "/overlay/";

/**
 * A request path for the log. A path that is, or only looks like, an overlay page link
 * (`/overlay//<token>`, `/%6Fverlay/<token>`, `/OVERLAY/<token>`, `/overlay;x/<token>`) is judged on
 * its decoded, normalised form and logged as `/overlay/[redacted]`; any other path as it came.
 */
export function redactPath(path: string): string {
  // Most paths hold neither an escape, a backslash nor the word: they are not worth normalising.
  if (!path.includes("%") && !path.includes("\\") && !/overlay/i.test(path)) return path;
  return normalisedPath(path).startsWith(OVERLAY_PAGE_PREFIX) ? `${OVERLAY_PAGE_PREFIX}${REDACTED}` : path;
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return "[…]";
  if (typeof value === "string")
    return value.includes("=") || value.includes("/overlay/") ? redactUrl(value) : value;
  if (value instanceof Error) return { name: value.name, message: redactUrl(value.message) };
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = SECRET_FIELD.test(key) && item != null && item !== "" ? REDACTED : redact(item, depth + 1);
    }
    return out;
  }
  return value;
}

/**
 * A line in the log's format that is written whatever the level and never redacted: only for the one
 * secret cuebot ever prints, the setup link (CONTRACT §2). Pretty: the message alone on its line, to
 * copy; json: one object like every other line, so stdout stays one object per line.
 */
export function unredactedLine(format: LogFormat, msg: string, now: number = Date.now()): string {
  if (format === "pretty") return msg;
  return JSON.stringify({ level: "warn", time: new Date(now).toISOString(), msg });
}

export interface LoggerOptions {
  level: LogLevel;
  format: LogFormat;
  /** Where lines go; stdout by default. */
  write?: (line: string) => void;
  now?: () => number;
}

export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const now = options.now ?? Date.now;
  const threshold = LEVEL_RANK[options.level];
  const warned = new Set<string>();

  const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (LEVEL_RANK[level] < threshold) return;
    const time = new Date(now()).toISOString();
    const safe = (fields ? redact(fields) : {}) as LogFields;
    if (options.format === "json") {
      write(JSON.stringify({ level, time, msg: redactUrl(msg), ...safe }));
      return;
    }
    const extra = Object.entries(safe)
      .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join(" ");
    write(
      `${time.slice(11, 19)} ${level.toUpperCase().padEnd(5)} ${redactUrl(msg)}${extra ? ` ${extra}` : ""}`,
    );
  };

  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    isEnabled: (level) => LEVEL_RANK[level] >= threshold,
    warnOnce(key, msg, fields) {
      if (warned.has(key)) return;
      warned.add(key);
      emit("warn", msg, fields);
    },
  };
}
