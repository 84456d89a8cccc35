import { afterEach, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError, loadConfig, type StoredConfig } from "../../../server/core/config.ts";
import { tempDir } from "../../helpers/context.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A data folder whose config.json holds `stored`. */
function dataDirWith(stored: StoredConfig): string {
  const dir = tempDir("cuebot-config-");
  dirs.push(dir);
  writeFileSync(join(dir, "config.json"), JSON.stringify(stored));
  return dir;
}

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("config precedence: flag > environment > config.json > default", () => {
  const cases: {
    key: keyof StoredConfig;
    env: string;
    flag: string;
    fromEnv: string;
    fromFile: string;
    read: (c: ReturnType<typeof loadConfig>) => unknown;
    values: [flag: unknown, env: unknown, file: unknown, fallback: unknown];
  }[] = [
    {
      key: "port",
      env: "CUEBOT_PORT",
      flag: "1111",
      fromEnv: "2222",
      fromFile: "3333",
      read: (c) => c.port,
      values: [1111, 2222, 3333, 8080],
    },
    {
      key: "host",
      env: "CUEBOT_HOST",
      flag: "10.0.0.1",
      fromEnv: "10.0.0.2",
      fromFile: "10.0.0.3",
      read: (c) => c.host,
      values: ["10.0.0.1", "10.0.0.2", "10.0.0.3", "127.0.0.1"],
    },
    {
      key: "publicUrl",
      env: "CUEBOT_PUBLIC_URL",
      flag: "https://flag.example/",
      fromEnv: "https://env.example",
      fromFile: "https://file.example",
      read: (c) => c.publicUrl,
      values: ["https://flag.example", "https://env.example", "https://file.example", null],
    },
    {
      key: "log",
      env: "CUEBOT_LOG",
      flag: "debug",
      fromEnv: "WARN",
      fromFile: "error",
      read: (c) => c.logLevel,
      values: ["debug", "warn", "error", "info"],
    },
    {
      key: "twitchClientId",
      env: "CUEBOT_TWITCH_CLIENT_ID",
      flag: "flag-id",
      fromEnv: "env-id",
      fromFile: "file-id",
      read: (c) => c.twitch.clientId,
      values: ["flag-id", "env-id", "file-id", null],
    },
    {
      key: "trustProxy",
      env: "CUEBOT_TRUST_PROXY",
      flag: "true",
      fromEnv: "false",
      fromFile: "true",
      read: (c) => c.trustProxy,
      values: [true, false, true, false],
    },
  ];

  for (const c of cases) {
    test(c.key, () => {
      const [fromFlag, fromEnv, fromFile, fallback] = c.values;
      const withFile = dataDirWith({ [c.key]: c.fromFile });
      const empty = dataDirWith({});
      const env = { [c.env]: c.fromEnv };
      expect(c.read(loadConfig({ dataDir: withFile, env, flags: { [c.key]: c.flag } }))).toEqual(fromFlag);
      expect(c.read(loadConfig({ dataDir: withFile, env }))).toEqual(fromEnv);
      expect(c.read(loadConfig({ dataDir: withFile, env: {} }))).toEqual(fromFile);
      expect(c.read(loadConfig({ dataDir: empty, env: {} }))).toEqual(fallback);
    });
  }

  test("the data folder: flag > CUEBOT_DATA_DIR > ./cuebot-data", () => {
    const flag = dataDirWith({});
    expect(loadConfig({ dataDir: flag, env: { CUEBOT_DATA_DIR: "/nowhere" } }).dataDir).toBe(flag);
    const env = dataDirWith({});
    expect(loadConfig({ env: { CUEBOT_DATA_DIR: env } }).dataDir).toBe(env);
    expect(loadConfig({ env: {} }).dataDir).toBe(resolve("cuebot-data"));
  });

  test("an empty environment variable counts as unset", () => {
    const dir = dataDirWith({ port: 4444 });
    expect(loadConfig({ dataDir: dir, env: { CUEBOT_PORT: "" } }).port).toBe(4444);
  });

  test("a flag left off (false) does not hide the environment", () => {
    const dir = dataDirWith({});
    expect(
      loadConfig({ dataDir: dir, env: { CUEBOT_TRUST_PROXY: "yes" }, flags: { trustProxy: false } })
        .trustProxy,
    ).toBe(true);
  });

  test("the log format defaults to pretty on a terminal and json otherwise", () => {
    const dir = dataDirWith({});
    expect(loadConfig({ dataDir: dir, env: {}, isTty: true }).logFormat).toBe("pretty");
    expect(loadConfig({ dataDir: dir, env: {}, isTty: false }).logFormat).toBe("json");
    expect(loadConfig({ dataDir: dir, env: { CUEBOT_LOG_FORMAT: "json" }, isTty: true }).logFormat).toBe(
      "json",
    );
  });

  test("defaults for the upstream services", () => {
    const config = loadConfig({ dataDir: dataDirWith({}), env: {} });
    expect(config.twitch.authUrl).toBe("https://id.twitch.tv");
    expect(config.twitch.apiUrl).toBe("https://api.twitch.tv/helix");
    expect(config.game.apiUrl).toBe("https://api.henrikdev.xyz");
    expect(config.game.apiKey).toBeNull();
    expect(config.twitch.extraScopes).toEqual([]);
  });

  test("extra scopes are split on whitespace", () => {
    const config = loadConfig({
      dataDir: dataDirWith({}),
      env: { CUEBOT_TWITCH_EXTRA_SCOPES: " moderator:manage:shoutouts  moderation:read " },
    });
    expect(config.twitch.extraScopes).toEqual(["moderator:manage:shoutouts", "moderation:read"]);
  });
});

describe("a bad value names where it came from", () => {
  test("flag, environment variable or config.json", () => {
    const dir = dataDirWith({ port: "eighty" });
    expect(errorOf(() => loadConfig({ dataDir: dir, env: {}, flags: { port: "70000" } }))).toBe(
      "invalid setting --port: 70000 is out of range (0–65535)",
    );
    expect(errorOf(() => loadConfig({ dataDir: dir, env: { CUEBOT_PORT: "x" } }))).toBe(
      'invalid setting CUEBOT_PORT: "x" is not a whole number',
    );
    expect(errorOf(() => loadConfig({ dataDir: dir, env: {} }))).toBe(
      'invalid setting port (config.json): "eighty" is not a whole number',
    );
  });

  test("URLs, booleans and hosts", () => {
    const dir = dataDirWith({});
    expect(errorOf(() => loadConfig({ dataDir: dir, env: { CUEBOT_TWITCH_AUTH_URL: "id.twitch.tv" } }))).toBe(
      'invalid setting CUEBOT_TWITCH_AUTH_URL: "id.twitch.tv" is not a URL',
    );
    expect(
      errorOf(() =>
        loadConfig({ dataDir: dir, env: { CUEBOT_TWITCH_EVENTSUB_URL: "https://eventsub.example/ws" } }),
      ),
    ).toBe(
      'invalid setting CUEBOT_TWITCH_EVENTSUB_URL: "https://eventsub.example/ws" must start with ws:// or wss://',
    );
    expect(loadConfig({ dataDir: dir, env: {} }).twitch.eventsubUrl).toBe("wss://eventsub.wss.twitch.tv/ws");
    expect(
      loadConfig({ dataDir: dir, env: { CUEBOT_TWITCH_EVENTSUB_URL: "ws://127.0.0.1:9/ws" } }).twitch
        .eventsubUrl,
    ).toBe("ws://127.0.0.1:9/ws");
    expect(errorOf(() => loadConfig({ dataDir: dir, env: { CUEBOT_TRUST_PROXY: "maybe" } }))).toBe(
      'invalid setting CUEBOT_TRUST_PROXY: "maybe" is not an address or CIDR (use true, false or a comma-separated list such as 10.0.0.0/8,::1)',
    );
    expect(errorOf(() => loadConfig({ dataDir: dir, env: {}, flags: { host: "my host" } }))).toBe(
      "invalid setting --host: is not a host name",
    );
  });

  test("--trust-proxy: true, false, or a list of addresses and CIDRs; anything else names the entry", () => {
    const dir = dataDirWith({});
    const trust = (value: string) =>
      loadConfig({ dataDir: dir, env: {}, flags: { trustProxy: value } }).trustProxy;
    expect(trust("true")).toBe(true);
    expect(trust("off")).toBe(false);
    expect(trust("10.0.0.0/8, 192.0.2.7 ,::1,2001:db8::/32")).toEqual([
      "10.0.0.0/8",
      "192.0.2.7",
      "::1",
      "2001:db8::/32",
    ]);
    const bad = (value: string, entry: string) =>
      expect(errorOf(() => loadConfig({ dataDir: dir, env: {}, flags: { trustProxy: value } }))).toBe(
        `invalid setting --trust-proxy: "${entry}" is not an address or CIDR (use true, false or a comma-separated list such as 10.0.0.0/8,::1)`,
      );
    bad("10.0.0.0/33", "10.0.0.0/33");
    bad("10.0.0.1,proxy.local", "proxy.local");
    bad("2001:db8::/129", "2001:db8::/129");
    bad("10.0.0.0/-1", "10.0.0.0/-1");
    bad("10.0.0.0/8,", "");
    bad("300.1.1.1", "300.1.1.1");
  });
});

describe("the owner (CUEBOT_OWNER, init --owner, config.json)", () => {
  test("a Twitch login, @ dropped and lower-cased; flag > environment > config.json; none by default", () => {
    const dir = dataDirWith({ owner: "FromFile" });
    expect(loadConfig({ dataDir: dataDirWith({}), env: {} }).owner).toBeNull();
    expect(loadConfig({ dataDir: dir, env: {} }).owner).toBe("fromfile");
    expect(loadConfig({ dataDir: dir, env: { CUEBOT_OWNER: "@Env_1" } }).owner).toBe("env_1");
    expect(loadConfig({ dataDir: dir, env: { CUEBOT_OWNER: "env" }, flags: { owner: "@Flag" } }).owner).toBe(
      "flag",
    );
  });

  test("anything that cannot be a login names where it came from", () => {
    const dir = dataDirWith({});
    expect(errorOf(() => loadConfig({ dataDir: dir, env: { CUEBOT_OWNER: "two words" } }))).toBe(
      'invalid setting CUEBOT_OWNER: "two words" is not a Twitch login (letters, digits and _, up to 25)',
    );
    expect(errorOf(() => loadConfig({ dataDir: dir, env: {}, flags: { owner: "x".repeat(26) } }))).toContain(
      "invalid setting --owner",
    );
  });
});
