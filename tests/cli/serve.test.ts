import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expectPostgresRefused, Scratch, seedAccount } from "../helpers/cli.ts";

const scratch = new Scratch();
afterEach(() => scratch.cleanup());

/** A port nothing listens on right now (the OS picks it, we release it). */
function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

describe("cuebot serve", () => {
  test("--port 0: prints the real port, answers /healthz over loopback, SIGTERM exits 0", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    const server = await scratch.serve(["serve", "--port", "0", "--data-dir", dataDir], { cwd });

    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).not.toEndWith(":0");
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 200, data: { ok: true } });

    expect(await server.stop("SIGTERM")).toBe(0);
    expect(server.stdout()).toContain("shutting down");
    // The first run created the data folder by itself.
    expect(statSync(join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dataDir, "config.json"))).toBe(true);
  });

  test("a second serve on the same data folder without a shared Redis is refused, naming the first; one killed leaves no trace that counts", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    const first = await scratch.serve(["serve", "--port", "0", "--data-dir", dataDir], { cwd });
    const second = await scratch.run(["serve", "--port", "0", "--data-dir", dataDir], { cwd });
    expect(second.code).toBe(1);
    expect(second.stderr).toStartWith(
      `cuebot: another cuebot serve (pid ${first.proc.pid}, without Redis) is running on this data folder; several instances on one data folder must all use the same --redis-url`,
    );
    expect(second.stdout).not.toContain("listening on");
    // The first one never noticed.
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);

    // Killed outright, the first leaves its file behind; the next start sees the process is gone.
    first.proc.kill("SIGKILL");
    await first.exited();
    const third = await scratch.serve(["serve", "--port", "0", "--data-dir", dataDir], { cwd });
    expect((await fetch(`${third.url}/healthz`)).status).toBe(200);
    // A demo is a folder of its own: it runs beside the real one.
    // The demo never joins a Redis the real install uses (here one that does not even answer).
    const demo = await scratch.serve(
      ["serve", "--demo", "--port", "0", "--data-dir", dataDir, "--redis-url", "redis://127.0.0.1:1"],
      { cwd },
    );
    expect(demo.stdout()).toContain("demo mode ignores CUEBOT_DATABASE_URL and CUEBOT_REDIS_URL");
    expect((await fetch(`${demo.url}/healthz`)).status).toBe(200);
    const secondDemo = await scratch.run(["serve", "--demo", "--port", "0", "--data-dir", dataDir], { cwd });
    expect(secondDemo.code).toBe(1);
    expect(secondDemo.stderr).toContain("would wipe its demo data");
    expect(await demo.stop()).toBe(0);
    expect(await third.stop()).toBe(0);
  }, 30_000);

  test("SIGINT also stops it with exit 0", async () => {
    const cwd = scratch.dir();
    const server = await scratch.serve(["serve", "--port", "0", "--data-dir", join(cwd, "data")], { cwd });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await server.stop("SIGINT")).toBe(0);
  });

  test("a request in flight when SIGTERM arrives is answered before the process exits 0", async () => {
    const cwd = scratch.dir();
    const server = await scratch.serve(["serve", "--port", "0", "--data-dir", join(cwd, "data")], { cwd });
    const { hostname, port } = new URL(server.url);
    let received = "";
    const socket = await Bun.connect({
      hostname,
      port: Number(port),
      socket: {
        data(_socket, chunk) {
          received += new TextDecoder().decode(chunk);
        },
      },
    });
    // Half a request: the server has the connection and the request line, not yet the end of the headers.
    socket.write("GET /healthz HTTP/1.1\r\nHost: cuebot.test\r\n");
    await Bun.sleep(100);
    server.proc.kill("SIGTERM");
    await Bun.sleep(300);
    expect(server.proc.exitCode).toBeNull();

    socket.write("Connection: close\r\n\r\n");
    expect(await server.exited()).toBe(0);
    socket.end();
    expect(received).toStartWith("HTTP/1.1 200 OK\r\n");
    expect(received).toEndWith('{"status":200,"data":{"ok":true}}');
  });

  test("a fixed --port is used, and after shutdown nothing listens on it", async () => {
    const cwd = scratch.dir();
    const port = freePort();
    const server = await scratch.serve(["serve", "--port", String(port), "--data-dir", join(cwd, "data")], {
      cwd,
    });
    expect(server.url).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  test("CUEBOT_PORT and CUEBOT_HOST are honoured; the flag wins over the environment", async () => {
    const cwd = scratch.dir();
    const envPort = freePort();
    const fromEnv = await scratch.serve(["serve", "--data-dir", join(cwd, "data")], {
      cwd,
      env: { CUEBOT_PORT: String(envPort), CUEBOT_HOST: "127.0.0.1" },
    });
    expect(fromEnv.url).toBe(`http://127.0.0.1:${envPort}`);
    expect(await fromEnv.stop()).toBe(0);

    const flagWins = await scratch.serve(["serve", "--port", "0", "--data-dir", join(cwd, "data")], {
      cwd,
      env: { CUEBOT_PORT: "1" },
    });
    expect(flagWins.url).not.toEndWith(":1");
    expect((await fetch(`${flagWins.url}/healthz`)).status).toBe(200);
    expect(await flagWins.stop()).toBe(0);
  });

  test("the JSON log says where it listens and never prints the provider secret", async () => {
    const cwd = scratch.dir();
    const server = await scratch.serve(
      ["serve", "--port", "0", "--data-dir", join(cwd, "data"), "--log-format", "json"],
      { cwd, env: { CUEBOT_TWITCH_CLIENT_ID: "cid", CUEBOT_TWITCH_CLIENT_SECRET: "very-secret-value" } },
    );
    await fetch(`${server.url}/healthz?apiKey=11111111-2222-4333-8444-555555555555`);
    expect(await server.stop()).toBe(0);
    const lines = server
      .stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { level: string; msg: string; time: string });
    expect(lines.some((l) => l.level === "info" && l.msg === `listening on ${server.url}`)).toBe(true);
    expect(server.stdout()).not.toContain("very-secret-value");
    expect(server.stdout()).not.toContain("11111111-2222-4333-8444-555555555555");
  });

  test("with --log error it still prints the line saying where it listens", async () => {
    const cwd = scratch.dir();
    const server = await scratch.serve(
      ["serve", "--port", "0", "--log", "error", "--data-dir", join(cwd, "d")],
      {
        cwd,
        timeoutMs: 3_000,
        // Configured: without Twitch the setup link is printed whatever the level (serve-setup.test.ts).
        env: { CUEBOT_TWITCH_CLIENT_ID: "cid", CUEBOT_TWITCH_CLIENT_SECRET: "secret" },
      },
    );
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    // The log stays quiet (stdout is the log stream); the readiness line goes to stderr.
    expect(server.stdout()).toBe("");
    expect(server.stderr()).toBe(`listening on ${server.url}\n`);
  });

  test("--demo keeps its data apart in <data dir>/demo and starts it fresh every time", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    const leftover = join(dataDir, "demo", "cuebot.db");
    mkdirSync(join(dataDir, "demo"), { recursive: true });
    writeFileSync(leftover, "");
    await seedAccount(join(dataDir, "demo"), "stale_from_last_run");
    // The demo never joins a Redis the real install uses (here one that does not even answer).
    const demo = await scratch.serve(
      ["serve", "--demo", "--port", "0", "--data-dir", dataDir, "--redis-url", "redis://127.0.0.1:1"],
      { cwd },
    );
    expect(demo.stdout()).toContain("demo mode ignores CUEBOT_DATABASE_URL and CUEBOT_REDIS_URL");
    expect(demo.stdout()).toContain("demo mode");
    const users = await scratch.run(["users", "list", "--json", "--data-dir", join(dataDir, "demo")], {
      cwd,
    });
    expect(JSON.parse(users.stdout)).toEqual([]);
    expect(existsSync(join(dataDir, "cuebot.db"))).toBe(false);
  });

  test("a second cuebot on a port another cuebot serves: exit 1, not two servers sharing it", async () => {
    const cwd = scratch.dir();
    const first = await scratch.serve(["serve", "--port", "0", "--data-dir", join(cwd, "one")], { cwd });
    const port = new URL(first.url).port;
    const second = await scratch.run(["serve", "--port", port, "--data-dir", join(cwd, "two")], { cwd });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(`cuebot: cannot listen on 127.0.0.1:${port}: the address is already in use\n`);
  });

  test("a port already in use: exit 1 and one line saying so", async () => {
    const cwd = scratch.dir();
    const holder = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
    try {
      const result = await scratch.run(
        ["serve", "--port", String(holder.port), "--data-dir", join(cwd, "data")],
        { cwd },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `cuebot: cannot listen on 127.0.0.1:${holder.port}: the address is already in use\n`,
      );
    } finally {
      holder.stop(true);
    }
  });

  test("a PostgreSQL that does not answer stops start-up with exit 1 naming it, instead of falling back to SQLite", async () => {
    const result = await expectPostgresRefused(scratch, ["serve", "--port", "0"]);
    expect(result.stdout).not.toContain("listening on");
  });

  test("a --redis-url that is not a Redis URL stops start-up with exit 1 and one line naming the flag", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(
      ["serve", "--port", "0", "--data-dir", join(cwd, "data"), "--redis-url", "mysql://root:s3cret@db/x"],
      { cwd },
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("--redis-url");
    expect(result.stderr).toContain("must start with redis://, rediss:// or redis+unix://");
    expect(result.stderr).not.toContain("s3cret");
  });

  test("a Redis that does not answer at start stops start-up with exit 1, naming it without its password", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    const port = freePort();
    const result = await scratch.run(
      ["serve", "--port", "0", "--data-dir", dataDir, "--redis-url", `redis://:s3cret@127.0.0.1:${port}`],
      { cwd },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toStartWith(`cuebot: cannot reach Redis at redis://:***@127.0.0.1:${port}`);
    expect(result.stderr).toContain("CUEBOT_REDIS_URL / --redis-url");
    expect(`${result.stdout}${result.stderr}`).not.toContain("s3cret");
    expect(result.stdout).not.toContain("listening on");
  }, 15_000);

  test("--trust-proxy LIST: a bad entry stops start-up with exit 1 and one line naming it", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(
      ["serve", "--port", "0", "--data-dir", join(cwd, "data"), "--trust-proxy", "10.0.0.0/8,300.1.1.1"],
      { cwd },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'cuebot: invalid setting --trust-proxy: "300.1.1.1" is not an address or CIDR (use true, false or a comma-separated list such as 10.0.0.0/8,::1)\n',
    );
  });

  test("--trust-proxy LIST: X-Forwarded-For is read from a listed peer only", async () => {
    const cwd = scratch.dir();
    const serve = (trust: string, folder: string) =>
      scratch.serve(["serve", "--port", "0", "--data-dir", join(cwd, folder), "--trust-proxy", trust], {
        cwd,
      });
    const remaining = async (url: string, client: string) =>
      (await fetch(`${url}/auth/login`, { headers: { "x-forwarded-for": client } })).headers.get(
        "x-ratelimit-remaining",
      );
    // Loopback listed: each forwarded client has its own /auth budget (15 per 5 minutes).
    const trusted = await serve("127.0.0.0/8,::1", "a");
    expect(await remaining(trusted.url, "203.0.113.1")).toBe("14");
    expect(await remaining(trusted.url, "203.0.113.2")).toBe("14");
    // Loopback not listed: the header is ignored, both requests count against the peer.
    const untrusted = await serve("10.0.0.0/8", "b");
    expect(await remaining(untrusted.url, "203.0.113.1")).toBe("14");
    expect(await remaining(untrusted.url, "203.0.113.2")).toBe("13");
  });
});
