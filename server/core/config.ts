import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseCidr } from "./ip-key.ts";
import { checkDatabaseUrl, checkRedisUrl, type StoreUrlProblem } from "./store-urls.ts";

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ["json", "pretty"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const CONFIG_FILE = "config.json";
export const DEFAULT_DATA_DIR = "./cuebot-data";

/** The one validated, typed view of every setting (CONTRACT §2). */
export interface Config {
  dataDir: string;
  host: string;
  port: number;
  /** Explicit public URL, or null to derive `http://localhost:<bound port>` once listening. */
  publicUrl: string | null;
  /**
   * Which direct peers are trusted proxies (their X-Forwarded-For is read): false = none, true =
   * loopback peers, or a list of addresses and CIDRs.
   */
  trustProxy: boolean | readonly string[];
  logLevel: LogLevel;
  logFormat: LogFormat;
  twitch: {
    clientId: string | null;
    clientSecret: string | null;
    authUrl: string;
    apiUrl: string;
    /** EventSub WebSocket for native chat (ws:// or wss://). */
    eventsubUrl: string;
    extraScopes: string[];
  };
  game: {
    apiUrl: string;
    apiKey: string | null;
    /**
     * A cap on upstream requests per minute, or null: what the provider's rate-limit headers say the
     * key may use (30, its basic keys' limit, until it answered).
     */
    budgetPerMinute: number | null;
  };
  /** Days chat-command events are kept before pruning. */
  eventRetentionDays: number;
  demo: boolean;
  /** PostgreSQL instead of the embedded SQLite file, or null. Holds a password: log `redactUrl` of it. */
  databaseUrl: string | null;
  /** Redis for state shared by instances, or null (in process). Holds a password: log `redactUrl` of it. */
  redisUrl: string | null;
  /** The install owner's Twitch login (lower case, no `@`): their account is created as Partner. */
  owner: string | null;
}

/** A bad setting: start-up stops with exit 1 and this one line. */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    problem: string,
  ) {
    super(`invalid setting ${setting}: ${problem}`);
  }
}

/** Settings that may come from a flag, the environment or config.json (CONTRACT §2). */
interface SettingSpec {
  key: keyof StoredConfig;
  env: string;
  flag?: string;
}

/** config.json's shape: every key optional, camelCase. */
export interface StoredConfig {
  host?: string;
  port?: number | string;
  publicUrl?: string;
  twitchClientId?: string;
  twitchClientSecret?: string;
  twitchAuthUrl?: string;
  twitchApiUrl?: string;
  twitchEventsubUrl?: string;
  twitchExtraScopes?: string;
  gameApiUrl?: string;
  gameApiKey?: string;
  gameApiBudgetPerMinute?: number | string;
  trustProxy?: boolean | string;
  log?: string;
  logFormat?: string;
  eventRetentionDays?: number | string;
  databaseUrl?: string;
  redisUrl?: string;
  owner?: string;
}

const SETTINGS: SettingSpec[] = [
  { key: "host", env: "CUEBOT_HOST", flag: "--host" },
  { key: "port", env: "CUEBOT_PORT", flag: "--port" },
  { key: "publicUrl", env: "CUEBOT_PUBLIC_URL", flag: "--public-url" },
  { key: "twitchClientId", env: "CUEBOT_TWITCH_CLIENT_ID", flag: "--twitch-client-id" },
  { key: "twitchClientSecret", env: "CUEBOT_TWITCH_CLIENT_SECRET", flag: "--twitch-client-secret" },
  { key: "twitchAuthUrl", env: "CUEBOT_TWITCH_AUTH_URL" },
  { key: "twitchApiUrl", env: "CUEBOT_TWITCH_API_URL" },
  { key: "twitchEventsubUrl", env: "CUEBOT_TWITCH_EVENTSUB_URL" },
  { key: "twitchExtraScopes", env: "CUEBOT_TWITCH_EXTRA_SCOPES" },
  { key: "gameApiUrl", env: "CUEBOT_GAME_API_URL" },
  { key: "gameApiKey", env: "CUEBOT_GAME_API_KEY" },
  { key: "gameApiBudgetPerMinute", env: "CUEBOT_GAME_API_BUDGET" },
  { key: "trustProxy", env: "CUEBOT_TRUST_PROXY", flag: "--trust-proxy" },
  { key: "log", env: "CUEBOT_LOG", flag: "--log" },
  { key: "logFormat", env: "CUEBOT_LOG_FORMAT", flag: "--log-format" },
  { key: "eventRetentionDays", env: "CUEBOT_EVENT_RETENTION_DAYS" },
  { key: "databaseUrl", env: "CUEBOT_DATABASE_URL", flag: "--database-url" },
  { key: "redisUrl", env: "CUEBOT_REDIS_URL", flag: "--redis-url" },
  { key: "owner", env: "CUEBOT_OWNER", flag: "--owner" },
];

export const STORED_KEYS: ReadonlySet<string> = new Set(SETTINGS.map((s) => s.key));

/** Values given on the command line, keyed like config.json. */
export type FlagValues = Partial<Record<keyof StoredConfig, string | boolean | undefined>>;

export interface ConfigSources {
  dataDir?: string;
  flags?: FlagValues;
  env?: Record<string, string | undefined>;
  demo?: boolean;
  /** Whether stdout is a terminal (chooses the default log format). */
  isTty?: boolean;
}

export function resolveDataDir(flag: string | undefined, env: Record<string, string | undefined>): string {
  const raw = flag ?? env.CUEBOT_DATA_DIR ?? DEFAULT_DATA_DIR;
  if (raw.trim() === "") {
    throw new ConfigError(flag === undefined ? "CUEBOT_DATA_DIR" : "--data-dir", "must not be empty");
  }
  return resolve(raw);
}

/** Reads `<dataDir>/config.json`; a missing file is an empty config, anything unreadable is an error. */
export function readStoredConfig(dataDir: string): StoredConfig {
  const path = join(dataDir, CONFIG_FILE);
  if (!existsSync(path)) return {};
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(path, `cannot read it (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError(path, "is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(path, "must hold a JSON object");
  }
  for (const [key, value] of Object.entries(parsed)) {
    if (!STORED_KEYS.has(key)) throw new ConfigError(`${key} (in ${path})`, "unknown setting");
    if (!["string", "number", "boolean"].includes(typeof value)) {
      throw new ConfigError(`${key} (in ${path})`, "must be a string, number or boolean");
    }
  }
  return parsed as StoredConfig;
}

function describe(spec: SettingSpec, from: "flag" | "env" | "file"): string {
  if (from === "flag" && spec.flag) return spec.flag;
  if (from === "env") return spec.env;
  return `${spec.key} (config.json)`;
}

export function loadConfig(sources: ConfigSources = {}): Config {
  const env = sources.env ?? process.env;
  const dataDir = resolveDataDir(sources.dataDir, env);
  const stored = readStoredConfig(dataDir);
  const flags = sources.flags ?? {};

  /** Picks flag > env > config.json and remembers where the value came from for error messages. */
  const pick = (key: keyof StoredConfig): { value: string; name: string } | undefined => {
    const spec = SETTINGS.find((s) => s.key === key)!;
    const flag = flags[key];
    if (flag !== undefined && flag !== false) return { value: String(flag), name: describe(spec, "flag") };
    const fromEnv = env[spec.env];
    if (fromEnv !== undefined && fromEnv !== "") return { value: fromEnv, name: describe(spec, "env") };
    const fromFile = stored[key];
    if (fromFile !== undefined) return { value: String(fromFile), name: describe(spec, "file") };
    return undefined;
  };

  const port = parseInteger(pick("port"), 8080, 0, 65535);
  const host = pick("host")?.value ?? "127.0.0.1";
  if (host.trim() === "" || /[\s/]/.test(host))
    throw new ConfigError(pick("host")!.name, "is not a host name");

  const publicUrlSetting = pick("publicUrl");
  const publicUrl = publicUrlSetting ? parseUrl(publicUrlSetting).replace(/\/+$/, "") : null;

  const logLevel = parseEnum(pick("log"), LOG_LEVELS, "info");
  const logFormat = parseEnum(pick("logFormat"), LOG_FORMATS, sources.isTty ? "pretty" : "json");

  return {
    dataDir,
    host,
    port,
    publicUrl,
    trustProxy: parseTrustProxy(pick("trustProxy")),
    logLevel,
    logFormat,
    twitch: {
      clientId: nonEmpty(pick("twitchClientId")),
      clientSecret: nonEmpty(pick("twitchClientSecret")),
      authUrl: stripSlash(parseUrl(pick("twitchAuthUrl") ?? { value: "https://id.twitch.tv", name: "" })),
      apiUrl: stripSlash(
        parseUrl(pick("twitchApiUrl") ?? { value: "https://api.twitch.tv/helix", name: "" }),
      ),
      eventsubUrl: parseUrl(
        pick("twitchEventsubUrl") ?? { value: "wss://eventsub.wss.twitch.tv/ws", name: "" },
        ["ws:", "wss:"],
      ),
      extraScopes: (pick("twitchExtraScopes")?.value ?? "").split(/\s+/).filter(Boolean),
    },
    game: {
      apiUrl: stripSlash(parseUrl(pick("gameApiUrl") ?? { value: "https://api.henrikdev.xyz", name: "" })),
      apiKey: nonEmpty(pick("gameApiKey")),
      budgetPerMinute: optionalInteger(pick("gameApiBudgetPerMinute"), 1, 100_000),
    },
    eventRetentionDays: parseInteger(pick("eventRetentionDays"), 90, 1, 36_500),
    demo: sources.demo ?? false,
    databaseUrl: parseStoreUrl(pick("databaseUrl"), checkDatabaseUrl),
    redisUrl: parseStoreUrl(pick("redisUrl"), checkRedisUrl),
    owner: parseOwner(pick("owner")),
  };
}

/** A Twitch login as people type it: a leading `@` dropped, 1–25 letters, digits or underscores. */
const TWITCH_LOGIN = /^[A-Za-z0-9_]{1,25}$/;

/** `text` as a Twitch login (lower case, without `@`), or null when it cannot be one. */
export function twitchLoginOf(text: string): string | null {
  const login = text.trim().replace(/^@/, "");
  return TWITCH_LOGIN.test(login) ? login.toLowerCase() : null;
}

function parseOwner(setting: { value: string; name: string } | undefined): string | null {
  if (!setting || setting.value.trim() === "") return null;
  const login = twitchLoginOf(setting.value);
  if (!login) {
    throw new ConfigError(
      setting.name,
      `"${setting.value}" is not a Twitch login (letters, digits and _, up to 25)`,
    );
  }
  return login;
}

/** A store URL, checked without ever putting it (or its password) into the error. */
function parseStoreUrl(
  setting: { value: string; name: string } | undefined,
  check: (text: string) => StoreUrlProblem,
): string | null {
  if (!setting || setting.value.trim() === "") return null;
  const result = check(setting.value);
  if (!result.ok) throw new ConfigError(setting.name, result.problem);
  return result.url;
}

function nonEmpty(setting: { value: string } | undefined): string | null {
  const value = setting?.value.trim();
  return value ? value : null;
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** An integer setting with no default: null when it is not set. */
function optionalInteger(setting: { value: string; name: string } | undefined, min: number, max: number) {
  return setting ? parseInteger(setting, min, min, max) : null;
}

function parseInteger(
  setting: { value: string; name: string } | undefined,
  fallback: number,
  min: number,
  max: number,
) {
  if (!setting) return fallback;
  const text = setting.value.trim();
  if (!/^\d+$/.test(text)) throw new ConfigError(setting.name, `"${setting.value}" is not a whole number`);
  const value = Number(text);
  if (value < min || value > max) {
    throw new ConfigError(setting.name, `${value} is out of range (${min}–${max})`);
  }
  return value;
}

function parseUrl(setting: { value: string; name: string }, schemes = ["http:", "https:"]): string {
  let url: URL;
  try {
    url = new URL(setting.value);
  } catch {
    throw new ConfigError(setting.name, `"${setting.value}" is not a URL`);
  }
  if (!schemes.includes(url.protocol)) {
    throw new ConfigError(
      setting.name,
      `"${setting.value}" must start with ${schemes.map((s) => `${s}//`).join(" or ")}`,
    );
  }
  return url.href;
}

const TRUE_WORDS = ["true", "1", "yes", "on"];
const FALSE_WORDS = ["false", "0", "no", "off"];

/** `true`/`false` (and their usual spellings), or a comma-separated list of addresses and CIDRs. */
function parseTrustProxy(setting: { value: string; name: string } | undefined): boolean | readonly string[] {
  if (!setting) return false;
  const text = setting.value.trim().toLowerCase();
  if (TRUE_WORDS.includes(text)) return true;
  if (FALSE_WORDS.includes(text)) return false;
  const entries = setting.value.split(",").map((entry) => entry.trim());
  for (const entry of entries) {
    if (!parseCidr(entry)) {
      throw new ConfigError(
        setting.name,
        `"${entry}" is not an address or CIDR (use true, false or a comma-separated list such as 10.0.0.0/8,::1)`,
      );
    }
  }
  return entries;
}

function parseEnum<T extends string>(
  setting: { value: string; name: string } | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (!setting) return fallback;
  const text = setting.value.trim().toLowerCase();
  if ((allowed as readonly string[]).includes(text)) return text as T;
  throw new ConfigError(setting.name, `"${setting.value}" is not one of ${allowed.join(", ")}`);
}

/** The public URL once the real port is known. */
export function publicUrlFor(config: Config, boundPort: number): string {
  return config.publicUrl ?? `http://localhost:${boundPort}`;
}
