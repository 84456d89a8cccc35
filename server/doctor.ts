import { existsSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import type { PgHandle } from "../db/pg/connection.ts";
import { openDatabase } from "../db/sqlite/connection.ts";
import { readSchemaStatus } from "../db/sqlite/migrate.ts";
import type { Config } from "./core/config.ts";
import { DATABASE_FILE, demoDataDir } from "./core/data-dir.ts";
import { type RunningInstance, runningInstances } from "./core/instance-registry.ts";
import { currentInvocation, howToConfigure } from "./core/invocation.ts";
import { readSecretKey, SECRET_KEY_FILE } from "./core/secrets.ts";
import { redactUrl } from "./core/store-urls.ts";
import type { RedisClient } from "./redis/client.ts";

/**
 * `cuebot doctor`: what an operator checks before blaming cuebot — the data folder and its secret,
 * the database, the address chat bots will call, the Twitch application, the game provider key, the
 * shared stores when configured, and whether a server answers. It changes nothing: the database is
 * opened read-only and no migration runs. The clients of Twitch, PostgreSQL and Redis are loaded only
 * when configured: a doctor on a plain data folder evaluates none of them.
 */

export type CheckStatus = "ok" | "info" | "warn" | "fail";

export interface CheckResult {
  check: string;
  status: CheckStatus;
  detail: string;
}

/** How long a network check waits for an answer. */
const NETWORK_TIMEOUT_MS = 5_000;

const result = (check: string, status: CheckStatus, detail: string): CheckResult => ({
  check,
  status,
  detail,
});

export function checkDataFolder(config: Config): CheckResult {
  const name = "data folder";
  if (!existsSync(config.dataDir)) {
    return result(
      name,
      "fail",
      `${config.dataDir} does not exist: run ${currentInvocation().command("init")} (or ${currentInvocation().serve}, which creates it)`,
    );
  }
  const secretPath = join(config.dataDir, SECRET_KEY_FILE);
  if (!existsSync(secretPath)) {
    const hasData = existsSync(join(config.dataDir, DATABASE_FILE));
    return hasData
      ? result(
          name,
          "fail",
          `${secretPath} is missing: the keys and tokens in the database cannot be opened without it; restore it from a backup`,
        )
      : result(
          name,
          "warn",
          `${config.dataDir} has no ${SECRET_KEY_FILE} yet (${currentInvocation().command("init")} or the first ${currentInvocation().serve} creates it)`,
        );
  }
  try {
    readSecretKey(secretPath);
  } catch (error) {
    return result(name, "fail", (error as Error).message);
  }
  const mode = statSync(secretPath).mode & 0o777;
  if (mode & 0o077) {
    return result(
      name,
      "warn",
      `${secretPath} can be read by other users (mode ${mode.toString(8)}): chmod 600 it`,
    );
  }
  return result(name, "ok", `${config.dataDir} (${SECRET_KEY_FILE} readable by its owner only)`);
}

export function checkDatabase(config: Config): CheckResult {
  const name = "database";
  const path = join(config.dataDir, DATABASE_FILE);
  if (!existsSync(path))
    return result(name, "warn", `${path} does not exist yet (${currentInvocation().serve} creates it)`);
  let handle: ReturnType<typeof openDatabase>;
  try {
    handle = openDatabase(path, { readonly: true });
  } catch (error) {
    return result(name, "fail", (error as Error).message);
  }
  try {
    const integrity = handle.sqlite.query("PRAGMA quick_check").all() as { quick_check: string }[];
    if (integrity.length !== 1 || integrity[0]?.quick_check !== "ok") {
      const first = integrity[0]?.quick_check ?? "no answer";
      return result(
        name,
        "fail",
        `${path} is damaged (${first}); restore the newest backup (${currentInvocation().command("backup <file>")} makes them)`,
      );
    }
    const schema = readSchemaStatus(handle.sqlite);
    if (schema.tooNew) {
      return result(
        name,
        "fail",
        `${path} was written by a newer cuebot; upgrade this binary or restore a backup`,
      );
    }
    const accounts = schema.applied === 0 ? 0 : countAccounts(handle.sqlite);
    const size = `${(statSync(path).size / 1024 / 1024).toFixed(1)} MB`;
    const where = `${path}, ${size}, ${accounts} account${accounts === 1 ? "" : "s"}`;
    if (schema.pending.length > 0) {
      return result(
        name,
        "info",
        `${where}; ${schema.pending.length} migration(s) to apply (${currentInvocation().serve} and ${currentInvocation().command("migrate")} apply them)`,
      );
    }
    return result(name, "ok", `${where}, schema ${schema.latestTag ?? "empty"}, integrity ok`);
  } catch (error) {
    return result(name, "fail", `${path}: ${(error as Error).message}`);
  } finally {
    handle.close();
  }
}

function countAccounts(sqlite: ReturnType<typeof openDatabase>["sqlite"]): number {
  return (sqlite.query("SELECT count(*) AS n FROM accounts").get() as { n: number }).n;
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "0.0.0.0"]);

/**
 * Which address the chat bots and the Twitch redirect use; cloud bots cannot reach a local one.
 * Without a public URL it is localhost on the port the server listens on (`port`, when one runs).
 */
export function checkPublicUrl(config: Config, port: number = config.port): CheckResult {
  const name = "public URL";
  const url = new URL(config.publicUrl ?? `http://localhost:${port}`);
  const origin = url.origin;
  if (LOCAL_HOSTS.has(url.hostname) || url.hostname.endsWith(".localhost")) {
    return result(
      name,
      "warn",
      `${origin}: Streamer.bot and OBS on this machine reach it, cloud bots (Nightbot, StreamElements, Fossabot) do not; set --public-url to an address they can reach (a tunnel or a reverse proxy)`,
    );
  }
  if (url.protocol !== "https:") {
    return result(
      name,
      "warn",
      `${origin}: plain http, so the session cookie is not Secure; serve it over https (a reverse proxy)`,
    );
  }
  return result(name, "ok", `${origin} (Twitch redirect: ${origin}/auth/callback)`);
}

/** Asks Twitch for an app token with the configured id and secret: that proves both. */
export async function checkTwitch(config: Config, fetchImpl: typeof fetch = fetch): Promise<CheckResult> {
  const name = "Twitch application";
  const { clientId, clientSecret, authUrl } = config.twitch;
  if (!clientId || !clientSecret) {
    return result(name, "warn", `not configured, so nobody can log in. ${howToConfigure()}`);
  }
  const { IdentityProviderClient, IdentityProviderError } = await import("./identity/idp-client.ts");
  const client = new IdentityProviderClient({
    baseUrl: authUrl,
    clientId,
    clientSecret,
    timeoutMs: NETWORK_TIMEOUT_MS,
    fetch: fetchImpl,
  });
  try {
    await client.appAccessToken();
    return result(name, "ok", `${authUrl} accepts the client id and secret`);
  } catch (error) {
    if (error instanceof IdentityProviderError && error.kind === "rejected") {
      return result(
        name,
        "fail",
        `${authUrl} refused the client id and secret (${error.message}): copy them again from the Twitch developer console`,
      );
    }
    return result(name, "fail", `${authUrl} did not answer (${(error as Error).message})`);
  }
}

export function checkGameProvider(config: Config): CheckResult {
  const name = "game provider";
  if (!config.game.apiKey) {
    return result(
      name,
      "warn",
      `no key for ${config.game.apiUrl}: the game commands answer an error until CUEBOT_GAME_API_KEY is set`,
    );
  }
  // Not called: every call counts against the provider's small budget.
  return result(
    name,
    "ok",
    `key set for ${config.game.apiUrl} (${
      config.game.budgetPerMinute === null
        ? "as many requests a minute as the provider allows the key"
        : `at most ${config.game.budgetPerMinute} requests a minute`
    })`,
  );
}

/** PostgreSQL when configured: answers, schema, and whether this data folder's secret.key is the shared one. */
export async function checkPostgres(config: Config): Promise<CheckResult | null> {
  if (!config.databaseUrl) return null;
  const name = "PostgreSQL";
  const where = redactUrl(config.databaseUrl);
  const [{ openPostgres }, { statusPg }] = await Promise.all([
    import("../db/pg/connection.ts"),
    import("../db/pg/migrate.ts"),
  ]);
  const pg = openPostgres(config.databaseUrl, { max: 1, statementTimeoutMs: NETWORK_TIMEOUT_MS });
  try {
    const version = await withTimeout(pg.sql.unsafe("SHOW server_version"), `${where} did not answer`);
    const schema = await statusPg(pg.sql);
    const parts = [`${where} answers (PostgreSQL ${String(version[0]?.server_version ?? "?")})`];
    if (schema.tooNew) {
      return result(
        name,
        "fail",
        `${parts[0]}; it was written by a newer cuebot: upgrade this binary on every instance`,
      );
    }
    if (schema.applied === 0)
      parts.push(
        `no cuebot schema yet (the first ${currentInvocation().serve} or ${currentInvocation().command("migrate")} creates it)`,
      );
    else {
      const [row] = await pg.sql.unsafe("SELECT count(*)::int AS n FROM accounts");
      const accounts = Number(row?.n ?? 0);
      parts.push(
        `schema ${schema.latestTag ?? "?"} (${schema.applied}/${schema.known}), ${accounts} account${accounts === 1 ? "" : "s"}`,
      );
      if (schema.pending.length > 0) {
        parts.push(
          `${schema.pending.length} migration(s) to apply (${currentInvocation().serve} and ${currentInvocation().command("migrate")} apply them)`,
        );
      }
    }
    const secret = await secretMatches(pg.sql, config.dataDir);
    if (secret === false) {
      return result(
        name,
        "fail",
        `${parts.join(", ")}; this data folder's secret.key is not the one the database was created with: copy it from an instance that uses this database`,
      );
    }
    if (secret === true) parts.push("secret.key matches");
    return result(name, schema.pending.length > 0 ? "info" : "ok", parts.join("; "));
  } catch (error) {
    return result(name, "fail", `${where}: ${(error as Error).message}`);
  } finally {
    await pg.close();
  }
}

/** True or false when the database recorded a secret fingerprint and the folder has a key; else null. */
async function secretMatches(sql: PgHandle["sql"], dataDir: string): Promise<boolean | null> {
  const [table] = await sql.unsafe("SELECT to_regclass('cuebot_meta') IS NOT NULL AS present");
  if (!table?.present) return null;
  const [row] = await sql.unsafe("SELECT value FROM cuebot_meta WHERE name = 'secret_key_fingerprint'");
  const secretPath = join(dataDir, SECRET_KEY_FILE);
  if (!row || !existsSync(secretPath)) return null;
  const { secretKeyFingerprint } = await import("../db/pg/secret-check.ts");
  return row.value === secretKeyFingerprint(readSecretKey(secretPath));
}

/** Redis when configured: answers PING, and its version. */
export async function checkRedis(config: Config): Promise<CheckResult | null> {
  if (!config.redisUrl) return null;
  const name = "Redis";
  const where = redactUrl(config.redisUrl);
  let lastError: Error | null = null;
  let client: RedisClient | null = null;
  try {
    const { connectRedis } = await import("./redis/client.ts");
    client = await withTimeout(
      connectRedis(config.redisUrl, {
        onError: (error) => {
          lastError = error;
        },
        connectTimeoutMs: NETWORK_TIMEOUT_MS,
        reconnect: false,
      }),
      `${where} did not answer`,
    );
    await client.ping();
    const info = await client.info("server");
    const version = /redis_version:(\S+)/.exec(String(info))?.[1] ?? "?";
    return result(
      name,
      "ok",
      `${where} answers (Redis ${version}); \`serve\` shares limits, cooldowns, overlays and chat through it`,
    );
  } catch (error) {
    const reason = (lastError as Error | null)?.message || (error as Error).message;
    return result(name, "fail", `${where}: ${reason}`);
  } finally {
    if (client?.isOpen) await client.close();
  }
}

/**
 * The servers a doctor run is about: those serving the folder's own data, and a `serve --demo` started
 * on it (which registers in the folder it was started on, and keeps its data in that folder's demo
 * folder, so the demo is found from either).
 */
export interface FolderInstances {
  data: RunningInstance[];
  demo: RunningInstance[];
  /** Where the demo keeps its data. */
  demoDir: string;
}

export function folderInstances(dataDir: string): FolderInstances {
  const here = runningInstances(dataDir);
  const parent = dirname(dataDir);
  const isDemoFolder = basename(dataDir) === "demo" && parent !== dataDir;
  const startedOn = isDemoFolder ? runningInstances(parent) : here;
  return {
    data: here.filter((i) => i.folder === "data"),
    demo: startedOn.filter((i) => i.folder === "demo"),
    demoDir: isDemoFolder ? dataDir : demoDataDir(dataDir),
  };
}

/** The address a server on this host answers /healthz on, for a host it binds (any address → loopback). */
function healthUrl(host: string, port: number | string): string {
  const bracketed = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const target = bracketed === "0.0.0.0" ? "127.0.0.1" : bracketed === "[::]" ? "[::1]" : bracketed;
  return `http://${target}:${port}/healthz`;
}

/** The /healthz addresses of the folder's servers running on this host, as each recorded it. */
function listeningHere(found: FolderInstances): URL[] {
  return [...found.data, ...found.demo].flatMap((i) =>
    i.url && i.host === hostname() ? [new URL(i.url)] : [],
  );
}

/**
 * Whether a cuebot answers (informational: doctor runs either way): where the folder's running
 * servers listen, else on the configured address.
 */
export async function checkServer(
  config: Config,
  found: FolderInstances,
  fetchImpl: typeof fetch = fetch,
): Promise<CheckResult> {
  const recorded = listeningHere(found).map((u) => healthUrl(u.hostname, u.port));
  const urls = recorded.length > 0 ? recorded : [healthUrl(config.host, config.port)];
  const results = await Promise.all(urls.map((url) => askHealth(url, fetchImpl)));
  const worst = results.find((r) => r.status === "warn") ?? results[0]!;
  return result("server", worst.status, results.map((r) => r.detail).join("; "));
}

async function askHealth(url: string, fetchImpl: typeof fetch): Promise<CheckResult> {
  const name = "server";
  try {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    if (response.status === 200) return result(name, "info", `a server answers on ${url}`);
    return result(
      name,
      "warn",
      `${url} answers ${response.status}: something other than cuebot may hold the port`,
    );
  } catch {
    return result(name, "info", `nothing answers on ${url} (start it with ${currentInvocation().serve})`);
  }
}

/** "pid 12 at http://127.0.0.1:8080 on other-host with Redis": one running server. */
function describeInstance(i: RunningInstance): string {
  const at = i.url ? ` at ${i.url}` : "";
  return `pid ${i.pid}${at}${i.host === hostname() ? "" : ` on ${i.host}`}${i.withRedis ? " with Redis" : ""}`;
}

/** Which `cuebot serve` processes run on this data folder now, the demo's too (informational). */
export function checkInstances(found: FolderInstances): CheckResult {
  const name = "instances";
  const parts: string[] = [];
  const { data, demo } = found;
  if (data.length > 0) {
    parts.push(
      `${data.length} cuebot serve ${data.length === 1 ? "runs" : "run"} on this data folder: ${data.map(describeInstance).join(", ")}`,
    );
  }
  if (demo.length > 0) {
    parts.push(
      `cuebot serve --demo runs on this data folder (its demo data in ${found.demoDir}): ${demo.map(describeInstance).join(", ")}`,
    );
  }
  if (parts.length === 0) return result(name, "info", "no cuebot serve runs on this data folder");
  return result(name, "info", parts.join("; "));
}

async function withTimeout<T>(promise: Promise<T>, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), NETWORK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every check, in the order an operator reads them. */
export async function runDoctor(config: Config): Promise<CheckResult[]> {
  const found = folderInstances(config.dataDir);
  const serving = listeningHere(found)[0];
  // With CUEBOT_DATABASE_URL the data is in PostgreSQL (its own check below), not in the folder's file.
  const local = [
    checkDataFolder(config),
    ...(config.databaseUrl ? [] : [checkDatabase(config)]),
    checkPublicUrl(config, serving ? Number(serving.port) : config.port),
  ];
  const [twitch, postgres, redis, server] = await Promise.all([
    checkTwitch(config),
    checkPostgres(config),
    checkRedis(config),
    checkServer(config, found),
  ]);
  return [
    ...local,
    twitch,
    checkGameProvider(config),
    ...(postgres ? [postgres] : []),
    ...(redis ? [redis] : []),
    server,
    checkInstances(found),
  ];
}

/** Exit 1 when any check failed; warnings are advice. */
export function doctorExitCode(results: CheckResult[]): 0 | 1 {
  return results.some((r) => r.status === "fail") ? 1 : 0;
}
