// The compiled dist/cuebot, copied ALONE into an empty folder: no node_modules, no sources, no
// migrations folder. Built first when missing or older than the sources; CUEBOT_SKIP_BINARY=1 skips.

import { Database } from "bun:sqlite";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  readdirSync,
  readlinkSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { writeObsSettings } from "../../db/obs.ts";
import pkg from "../../package.json" with { type: "json" };
import { loadConfig } from "../../server/core/config.ts";
import { openCore } from "../../server/core/context.ts";
import { createLogger } from "../../server/core/log.ts";
import { startObsSimulator } from "../../server/sim/obs/server.ts";
import { startTwitchSimulator } from "../../server/sim/twitch/server.ts";
import { haveChromium, launchChromium, logIn, startDemoServer, watchPage } from "../helpers/browser.ts";
import { REPO_ROOT, runCuebot, SCHEMA, Scratch, type ServeProcess, seedAccount } from "../helpers/cli.ts";
import { createTestDatabase, postgresAvailable, redisAvailable, startRedis } from "../helpers/engines.ts";
import { cookieHeader } from "../helpers/twitch.ts";

const SKIP = process.env.CUEBOT_SKIP_BINARY === "1";
if (SKIP) console.warn("binary: CUEBOT_SKIP_BINARY=1, skipping the tests of the compiled dist/cuebot");

const BUILT = join(REPO_ROOT, "dist", "cuebot");
const scratch = new Scratch();
let home: string;
/** The binary's own folder holds nothing else. */
let binary: string;

/** Newest modification time of anything that goes into the binary. */
function newestSource(): number {
  let newest = statSync(join(REPO_ROOT, "package.json")).mtimeMs;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of ["cli", "server", "db"]) walk(join(REPO_ROOT, dir));
  return newest;
}

async function ensureBuilt(): Promise<void> {
  const reason = !existsSync(BUILT)
    ? "dist/cuebot is missing"
    : statSync(BUILT).mtimeMs < newestSource()
      ? "dist/cuebot is older than the sources"
      : null;
  if (!reason) return;
  console.log(`binary: ${reason}; running scripts/build.ts`);
  // This machine's binary only: the cross-compiled ones are CI's and `npm run build`'s business.
  const build = Bun.spawn([process.execPath, join(REPO_ROOT, "scripts", "build.ts"), "--host-only"], {
    cwd: REPO_ROOT,
    stdout: "inherit",
    stderr: "inherit",
  });
  if ((await build.exited) !== 0) throw new Error("scripts/build.ts failed");
}

/** How many open files of process `pid` are `path` (Linux: its /proc/<pid>/fd links). */
function openHandles(pid: number, path: string): number {
  const fds = readdirSync(`/proc/${pid}/fd`);
  return fds.filter((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;
}

function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

const cuebot = (args: string[], cwd = home, env: Record<string, string> = {}) =>
  runCuebot(args, { cwd, command: [binary], env });

describe.skipIf(SKIP)("the compiled binary, alone in an empty folder", () => {
  beforeAll(async () => {
    await ensureBuilt();
    home = scratch.dir("cuebot-binary-");
    chmodSync(home, 0o755);
    binary = join(home, "cuebot");
    copyFileSync(BUILT, binary);
    chmodSync(binary, 0o755);
    console.log(`binary: dist/cuebot is ${(statSync(binary).size / 1024 / 1024).toFixed(1)} MB`);
  }, 120_000);
  afterAll(() => scratch.cleanup());
  // A failed test must not leave its server running into the next one; folders go at the end.
  afterEach(() => scratch.killProcesses());

  test("--version is baked in", async () => {
    expect(await cuebot(["--version"])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
  });

  test("init → serve --port 0 → /healthz 200 → SIGTERM → exit 0", async () => {
    const init = await cuebot(["init"]);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("http://localhost:8080/auth/callback");
    expect(statSync(join(home, "cuebot-data", "secret.key")).mode & 0o777).toBe(0o600);

    const server = await scratch.serve(["serve", "--port", "0"], { cwd: home, command: [binary] });
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 200, data: { ok: true } });
    // The pages, the bundled dashboard and overlay scripts and the icon are inside the binary.
    expect((await fetch(`${server.url}/dashboard`)).status).toBe(200);
    const script = await (await fetch(`${server.url}/assets/dashboard.js`)).text();
    expect(script).toContain("Bot setup");
    // The overlay page's script, bundled from TypeScript the same way.
    const overlay = await fetch(`${server.url}/assets/overlay.js`);
    expect(overlay.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await overlay.text()).toContain("Channel points");
    expect((await fetch(`${server.url}/favicon.ico`)).headers.get("content-type")).toBe("image/svg+xml");
    // The database worker (its own chunk in the binary) starts with the first work handed to it, not
    // before: idle, the server holds one connection to the file. A bot command (an analytics event, a
    // note of the key's use) starts it, and then it holds a second. A worker that cannot load would
    // leave the main connection alone, and log a warning.
    const database = join(home, "cuebot-data", "cuebot.db");
    expect(openHandles(server.proc.pid, database)).toBe(1);
    const { apiKey } = await seedAccount(join(home, "cuebot-data"), "workerprobe");
    expect((await fetch(`${server.url}/api/bot/coinflip?apiKey=${apiKey}`)).status).toBe(200);
    for (let i = 0; i < 100 && openHandles(server.proc.pid, database) < 2; i++) await Bun.sleep(50);
    expect(openHandles(server.proc.pid, database)).toBe(2);
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(`${server.stdout()}${server.stderr()}`).not.toContain("worker");
    expect((await cuebot(["users", "delete", "workerprobe", "--yes"])).code).toBe(0);
    // Nothing appeared beside the binary but its data folder.
    expect(readdirSync(home).sort()).toEqual(["cuebot", "cuebot-data"]);
  });

  test.skipIf(!haveChromium)(
    "serve --demo: the dashboard loads in Chromium from the binary alone",
    async () => {
      const demo = await startDemoServer([binary]);
      const browser = await launchChromium();
      try {
        const page = await logIn(await browser.newContext(), demo.base);
        const watch = watchPage(page, demo.base);
        await page.goto(`${demo.base}/dashboard#/bots`);
        await page.locator(".line-card code.line").first().waitFor();
        expect(await page.locator("h1").textContent()).toBe("Bot setup");
        expect(watch.problems).toEqual([]);
      } finally {
        await browser.close();
        await demo.stop();
      }
    },
    60_000,
  );

  test("the admin commands work on that data folder (also while serving)", async () => {
    if (!existsSync(join(home, "cuebot-data", "cuebot.db"))) expect((await cuebot(["init"])).code).toBe(0);
    const { apiKey } = await seedAccount(join(home, "cuebot-data"), "alice");

    const migrate = await cuebot(["migrate"]);
    expect(migrate).toEqual({
      code: 0,
      stdout: `schema version ${SCHEMA.version} (${SCHEMA.latest}); already up to date\n`,
      stderr: "",
    });
    const server = await scratch.serve(["serve", "--port", "0"], { cwd: home, command: [binary] });

    const list = await cuebot(["users", "list", "--json"]);
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as { login: string; role: string }[]).map((a) => a.login)).toEqual([
      "alice",
    ]);
    expect((await cuebot(["key", "show", "alice"])).stdout).toBe(`${apiKey}\n`);
    expect((await cuebot(["role", "set", "alice", "vip"])).code).toBe(0);

    const backupFile = join(scratch.dir(), "backup.db");
    const backup = await cuebot(["backup", backupFile]);
    expect(backup.code).toBe(0);
    expect(backup.stdout).toStartWith(`backup written to ${backupFile}`);
    const copy = new Database(backupFile, { readonly: true });
    expect(copy.query("SELECT login, role FROM accounts").all()).toEqual([{ login: "alice", role: "VIP" }]);
    copy.close();
    expect((await cuebot(["backup", backupFile])).code).toBe(1);

    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await server.stop("SIGINT")).toBe(0);
  });

  test("the OBS connection runs inside the binary (obs-websocket-js's JSON build): connected to OBS", async () => {
    if (!existsSync(join(home, "cuebot-data", "cuebot.db"))) expect((await cuebot(["init"])).code).toBe(0);
    const dataDir = join(home, "cuebot-data");
    const { account } = await seedAccount(dataDir, "obsfan");
    const obs = startObsSimulator({ password: "binary-obs-pw" });
    try {
      const core = await openCore(loadConfig({ dataDir, env: {} }), {
        log: createLogger({ level: "error", format: "json", write: () => {} }),
      });
      const settings = { enabled: true, url: obs.url, via: "server" as const, password: "binary-obs-pw" };
      await writeObsSettings(core.db, core.secrets, account.id, settings, Date.now());
      await core.close();
      const server = await scratch.serve(["serve", "--port", "0"], { cwd: home, command: [binary] });
      const seen = () => {
        const db = new Database(join(dataDir, "cuebot.db"), { readonly: true });
        try {
          return db.query("SELECT state, obs_version AS version FROM obs_settings").get();
        } finally {
          db.close();
        }
      };
      for (let i = 0; i < 100 && obs.identifiedClients() < 1; i++) await Bun.sleep(100);
      expect(obs.identifiedClients()).toBe(1);
      for (let i = 0; i < 50 && (seen() as { state: string }).state !== "connected"; i++)
        await Bun.sleep(100);
      expect(seen()).toEqual({ state: "connected", version: "29.0.2" });
      expect(await server.stop("SIGTERM")).toBe(0);
      expect(`${server.stdout()}${server.stderr()}`).not.toContain("obs-websocket");
    } finally {
      await obs.kill();
    }
    expect((await cuebot(["users", "delete", "obsfan", "--yes"])).code).toBe(0);
  });

  test("a .env or bunfig.toml in the working folder is ignored", async () => {
    const cwd = scratch.dir();
    writeFileSync(join(cwd, ".env"), "CUEBOT_LOG=nonsense\nCUEBOT_PORT=abc\n");
    writeFileSync(join(cwd, "bunfig.toml"), 'preload = ["./missing.ts"]\n');
    const server = await scratch.serve(["serve", "--port", "0", "--data-dir", join(cwd, "data")], {
      cwd,
      command: [binary],
    });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
  });

  test("the first run finished in the browser: setup link → page → form → logged in, no restart", async () => {
    const sim = startTwitchSimulator({});
    try {
      const cwd = scratch.dir();
      const server = await scratch.serve(["serve", "--port", "0", "--data-dir", join(cwd, "data")], {
        cwd: home,
        command: [binary],
        env: { CUEBOT_TWITCH_AUTH_URL: sim.authUrl, CUEBOT_TWITCH_API_URL: sim.helixUrl },
      });
      // The binary names itself as it was started from here, never `npm`.
      expect(server.stdout()).toContain("./cuebot init --twitch-client-id <id>");
      expect(server.stdout()).toContain("./cuebot serve --demo");
      const link = /"msg":"(http:\/\/localhost:\d+\/setup\?token=[A-Za-z0-9_-]{43})"/.exec(
        server.stdout(),
      )![1]!;
      const base = new URL(link).origin;
      const page = await fetch(link, { headers: { accept: "text/html" } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`${base}/auth/callback`);
      expect((await fetch(`${base}/auth/login`, { redirect: "manual" })).status).toBe(503);

      const form = {
        token: new URL(link).searchParams.get("token")!,
        client_id: sim.client.id,
        client_secret: sim.client.secret,
        owner: "@CuebotDemo",
      };
      const posted = await fetch(`${base}/setup`, {
        method: "POST",
        headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
        redirect: "manual",
      });
      expect(posted.status).toBe(303);
      expect(posted.headers.get("location")).toBe("/");
      expect(await (await fetch(`${base}/`)).text()).toContain('id="login"');

      const login = await fetch(`${base}/auth/login`, { redirect: "manual" });
      expect(login.status).toBe(302);
      expect(login.headers.get("location")).toStartWith(`${sim.authUrl}/oauth2/authorize?`);
      const approved = await fetch(`${login.headers.get("location")}&as=cuebotdemo&decision=approve`, {
        redirect: "manual",
      });
      const callback = await fetch(approved.headers.get("location")!, {
        headers: { cookie: cookieHeader(login.headers.getSetCookie()) },
        redirect: "manual",
      });
      expect(callback.headers.get("location")).toBe("/dashboard");
      const roles = await cuebot(["role", "list", "--json", "--data-dir", join(cwd, "data")]);
      expect(JSON.parse(roles.stdout)).toEqual([
        { login: "cuebotdemo", role: "Partner", panelLimitOverride: null },
      ]);

      // The link is spent, and a wrong token never worked.
      for (const token of [form.token, "wrong"]) {
        const again = await fetch(`${base}/setup`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ ...form, token }).toString(),
        });
        expect(again.status).toBe(403);
        expect(((await again.json()) as { error: { code: string } }).error.code).toBe("forbidden");
      }
      expect(await server.stop()).toBe(0);
    } finally {
      await sim.stop();
    }
  }, 30_000);

  test("cold start: exec → first /healthz 200", async () => {
    const dataDir = join(scratch.dir(), "data");
    expect((await cuebot(["init", "--data-dir", dataDir])).code).toBe(0);
    const port = freePort();
    const startedAt = performance.now();
    const server = scratch.serve(["serve", "--port", String(port), "--data-dir", dataDir], {
      cwd: home,
      command: [binary],
    });
    let ready = false;
    while (!ready && performance.now() - startedAt < 10_000) {
      ready = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (!ready) await Bun.sleep(2);
    }
    const coldStartMs = performance.now() - startedAt;
    expect(ready).toBe(true);
    console.log(`binary: cold start (exec → first /healthz 200) ${coldStartMs.toFixed(0)} ms`);
    expect(await (await server).stop()).toBe(0);
  });

  test.skipIf(process.getuid?.() !== 0 || !Bun.which("setpriv"))(
    "as an unprivileged user: runs in its own folder, and a folder it cannot write is refused",
    async () => {
      const asNobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", binary];
      const own = scratch.dir();
      chmodSync(own, 0o777);
      const dataDir = join(own, "data");
      const init = await runCuebot(["init", "--data-dir", dataDir], { cwd: own, command: asNobody });
      expect(init.code).toBe(0);
      expect(statSync(join(dataDir, "secret.key")).uid).toBe(65534);
      const server = await scratch.serve(["serve", "--port", "0", "--data-dir", dataDir], {
        cwd: own,
        command: asNobody,
      });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(await server.stop()).toBe(0);

      const rootOwned = scratch.dir();
      chmodSync(rootOwned, 0o755);
      const refused = await runCuebot(["serve", "--port", "0", "--data-dir", rootOwned], {
        cwd: own,
        command: asNobody,
      });
      expect(refused).toEqual({
        code: 1,
        stdout: "",
        stderr: `cuebot: data folder ${rootOwned} is not writable (EACCES)\n`,
      });
    },
  );

  test.skipIf(!redisAvailable)(
    "two binaries with --redis-url share one quota: the minified build waits for the shared limits",
    async () => {
      const redis = await startRedis();
      try {
        const own = scratch.dir();
        const dataDir = join(own, "data");
        expect((await runCuebot(["init", "--data-dir", dataDir], { cwd: own, command: [binary] })).code).toBe(
          0,
        );
        const { apiKey } = await seedAccount(dataDir, "alice");
        const args = ["serve", "--port", "0", "--data-dir", dataDir, "--redis-url", redis.url];
        const [a, b] = await Promise.all([
          scratch.serve(args, { cwd: own, command: [binary] }),
          scratch.serve(args, { cwd: own, command: [binary] }),
        ]);
        const remaining: (string | null)[] = [];
        for (let i = 0; i < 30; i++) {
          const response = await fetch(`${(i % 2 === 0 ? a : b).url}/api/bot/coinflip?apiKey=${apiKey}`);
          expect(response.status).toBe(200);
          remaining.push(response.headers.get("x-ratelimit-remaining"));
        }
        expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => String(29 - i)));
        expect((await fetch(`${b.url}/api/bot/coinflip?apiKey=${apiKey}`)).status).toBe(429);
        // The game route's derive and the per-address hook are awaited too.
        const game = await fetch(`${a.url}/api/game/rank/eu/Kestrel/EUW?apiKey=${apiKey}`);
        expect(game.status).toBe(429);
        const page = await fetch(`${a.url}/`);
        expect(page.status).toBe(200);
        expect(page.headers.get("x-ratelimit-limit")).toBe("300");
        expect(await a.stop()).toBe(0);
        expect(await b.stop()).toBe(0);
      } finally {
        await redis.stop();
      }
    },
    60_000,
  );

  test.skipIf(!redisAvailable || !postgresAvailable)(
    "two binaries on PostgreSQL and Redis act as one: one quota, a CLI key rotation refused by both at once, one killed and the other serves",
    async () => {
      const redis = await startRedis();
      try {
        const database = await createTestDatabase({ migrated: false });
        const env = { CUEBOT_DATABASE_URL: database.url, CUEBOT_REDIS_URL: redis.url };
        const own = scratch.dir();
        const dataDir = join(own, "data");
        const run = (args: string[]) => runCuebot(args, { cwd: own, command: [binary], env });
        expect((await run(["init", "--data-dir", dataDir])).code).toBe(0);
        // The binary migrates the empty database itself.
        expect((await run(["migrate", "--data-dir", dataDir])).stdout).toStartWith(
          `schema version ${SCHEMA.version} `,
        );
        const { apiKey } = await seedAccount(dataDir, "alice", "alice", {
          CUEBOT_DATABASE_URL: database.url,
        });
        const args = ["serve", "--port", "0", "--data-dir", dataDir];
        const [a, b] = await Promise.all([
          scratch.serve(args, { cwd: own, command: [binary], env }),
          scratch.serve(args, { cwd: own, command: [binary], env }),
        ]);
        expect(a.stdout()).toContain('"stores":"postgres postgres://cuebot@127.0.0.1');
        const coinflip = (server: ServeProcess, key: string) =>
          fetch(`${server.url}/api/bot/coinflip?apiKey=${key}`);
        for (let i = 0; i < 10; i++) expect((await coinflip(i % 2 === 0 ? a : b, apiKey)).status).toBe(200);
        const counted = await coinflip(b, apiKey);
        expect(counted.headers.get("x-ratelimit-remaining")).toBe("19");

        const rotated = await run(["key", "rotate", "alice", "--data-dir", dataDir]);
        expect(rotated.code).toBe(0);
        for (const server of [a, b]) expect((await coinflip(server, apiKey)).status).toBe(401);
        const fresh = rotated.stdout.trim();
        expect((await coinflip(a, fresh)).status).toBe(200);

        a.proc.kill("SIGKILL");
        await a.exited();
        expect((await coinflip(b, fresh)).status).toBe(200);
        expect(await b.stop()).toBe(0);
      } finally {
        await redis.stop();
      }
    },
    60_000,
  );
});
