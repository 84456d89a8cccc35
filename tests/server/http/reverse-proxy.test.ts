import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { listen, type RunningServer } from "../../../server/listen.ts";
import { TEST_CLIENT_IP_HEADER } from "../../helpers/context.ts";
import { cookieHeader, type IdentityHarness, startIdentityHarness } from "../../helpers/twitch.ts";

/**
 * Login behind real reverse proxies (issue 22 §4): nginx and Caddy run docs/reverse-proxy.md's own blocks, with
 * only names and ports replaced, in front of a listening cuebot. CI installs both (.ci/run); a
 * developer machine without them skips these tests, CI never does.
 */
const GUIDE = readFileSync(join(import.meta.dir, "../../../docs/reverse-proxy.md"), "utf8");
/** Where a program is: on PATH, or in the sbin folders a non-root PATH lacks (Debian puts nginx there). */
function findProgram(name: string): string | null {
  return Bun.which(name, { PATH: [process.env.PATH ?? "", "/usr/sbin", "/sbin"].join(":") });
}
const NGINX = findProgram("nginx");
const CADDY = findProgram("caddy");
const MUST_RUN = process.env.CI === "true";

/** The first fenced block of this language in the guide, exactly as a reader copies it. */
function guideBlock(language: string): string {
  const match = GUIDE.match(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``));
  if (!match?.[1]) throw new Error(`docs/reverse-proxy.md has no \`\`\`${language} block`);
  return match[1];
}

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port as number;
  probe.stop(true);
  return port;
}

interface Proxy {
  origin: string;
  stop(): Promise<void>;
}

let dir: string | undefined;
let proxy: Proxy | undefined;
let server: RunningServer | undefined;
let h: IdentityHarness | undefined;
afterEach(async () => {
  await proxy?.stop();
  await server?.stop(1000);
  await h?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  proxy = server = h = dir = undefined;
});

/** The test's folder for a proxy's configuration and files (made on first use). */
function workDir(): string {
  dir ??= mkdtempSync(join(tmpdir(), "cuebot-proxy-"));
  return dir;
}

function stopper(child: Subprocess): () => Promise<void> {
  return async () => {
    child.kill();
    await child.exited;
  };
}

async function waitUntilServing(origin: string, child: Subprocess, logFile: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) break;
    const up = await fetch(`${origin}/healthz`).then(
      () => true,
      () => false,
    );
    if (up) return;
    await Bun.sleep(25);
  }
  throw new Error(`the proxy did not start: ${readFileSync(logFile, "utf8")}`);
}

/** nginx in the foreground, one process, everything it writes in the test folder. */
async function startNginx(serverBlock: string, port: number): Promise<Proxy> {
  const work = workDir();
  const config = join(work, "nginx.conf");
  const errors = join(work, "error.log");
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((kind) => `${kind}_temp_path ${join(work, kind)};`)
    .join("\n");
  writeFileSync(
    config,
    `daemon off;\nmaster_process off;\npid ${join(work, "nginx.pid")};\nerror_log ${errors};\n` +
      `events {}\nhttp {\naccess_log off;\n${temp}\n${serverBlock}\n}\n`,
  );
  // -e: where nginx logs before it has read the configuration (the system's log would need root).
  const child = Bun.spawn([NGINX as string, "-p", work, "-e", errors, "-c", config], {
    stdout: "ignore",
    stderr: "ignore",
  });
  const origin = `http://localhost:${port}`;
  await waitUntilServing(origin, child, errors);
  return { origin, stop: stopper(child) };
}

async function startCaddy(siteBlock: string, port: number): Promise<Proxy> {
  const work = workDir();
  const config = join(work, "Caddyfile");
  const log = join(work, "caddy.log");
  writeFileSync(config, `{\n\tadmin off\n}\n${siteBlock}`);
  const child = Bun.spawn([CADDY as string, "run", "--config", config, "--adapter", "caddyfile"], {
    env: { ...process.env, HOME: work, XDG_DATA_HOME: work, XDG_CONFIG_HOME: work },
    stdout: "ignore",
    stderr: Bun.file(log),
  });
  const origin = `http://localhost:${port}`;
  await waitUntilServing(origin, child, log);
  return { origin, stop: stopper(child) };
}

/** A cuebot listening on loopback, trusting loopback proxies, whose public URL is the proxy's. */
async function startCuebot(publicOrigin: string): Promise<{ port: number }> {
  h = await startIdentityHarness({
    publicUrl: publicOrigin,
    configure: (c) => {
      c.port = 0;
      c.trustProxy = true;
    },
  });
  server = listen(h.ctx, h.app);
  return { port: server.port };
}

/**
 * A browser's login through the proxy: follows cuebot's own redirects (counting them) up to the
 * identity provider, approves there, and comes back through the proxy to the callback.
 */
async function loginThroughProxy(
  origin: string,
): Promise<{ movedTimes: number; session: string | undefined }> {
  const harness = h as IdentityHarness;
  harness.sim.knobs.autoApproveAs = "cuebotdemo";
  let response = await fetch(`${origin}/auth/login`, { redirect: "manual" });
  let movedTimes = 0;
  while (response.status === 302 && response.headers.get("location")?.startsWith(origin) && movedTimes < 5) {
    movedTimes++;
    response = await fetch(response.headers.get("location") as string, { redirect: "manual" });
  }
  expect(response.status).toBe(302);
  const atProvider = response.headers.get("location") as string;
  expect(atProvider.startsWith(harness.sim.authUrl)).toBe(true);
  const stateCookies = cookieHeader(response.headers.getSetCookie());
  const approved = await fetch(atProvider, { redirect: "manual" });
  const callback = approved.headers.get("location") as string;
  expect(callback.startsWith(`${origin}/auth/callback?`)).toBe(true);
  const finished = await fetch(callback, { redirect: "manual", headers: { cookie: stateCookies } });
  expect(finished.status).toBe(302);
  expect(finished.headers.get("location")).toBe("/dashboard");
  const session = finished.headers.getSetCookie().find((cookie) => cookie.startsWith("app_sess="));
  return { movedTimes, session };
}

function nginxBlock(block: string, proxyPort: number, cuebotPort: number): string {
  return block
    .replace("listen 80;", `listen 127.0.0.1:${proxyPort};`)
    .replace("server_name cue.example.com;", "server_name localhost;")
    .replace("http://127.0.0.1:8080", `http://127.0.0.1:${cuebotPort}`);
}

describe("login behind a reverse proxy (issue 22 §4)", () => {
  test.if(MUST_RUN)("CI finds both proxies, so none of these tests is skipped", () => {
    expect({ nginx: NGINX, caddy: CADDY }).toEqual({ nginx: expect.any(String), caddy: expect.any(String) });
  });

  test.skipIf(!NGINX && !MUST_RUN)(
    "the guide's nginx block: login straight to Twitch, no detour",
    async () => {
      const proxyPort = freePort();
      const { port } = await startCuebot(`http://localhost:${proxyPort}`);
      proxy = await startNginx(nginxBlock(guideBlock("nginx"), proxyPort, port), proxyPort);
      const { movedTimes, session } = await loginThroughProxy(proxy.origin);
      expect(movedTimes).toBe(0);
      expect(session).toBeDefined();
    },
  );

  test.skipIf(!NGINX && !MUST_RUN)(
    "nginx's bare proxy_pass (Host rewritten, no X-Forwarded-*): one redirect at most, then the login",
    async () => {
      const proxyPort = freePort();
      const { port } = await startCuebot(`http://localhost:${proxyPort}`);
      const bare = `server {\n    listen 127.0.0.1:${proxyPort};\n    location / {\n        proxy_pass http://127.0.0.1:${port};\n    }\n}\n`;
      proxy = await startNginx(bare, proxyPort);
      const { movedTimes, session } = await loginThroughProxy(proxy.origin);
      expect(movedTimes).toBe(1);
      expect(session).toBeDefined();
    },
  );

  test.skipIf(!CADDY && !MUST_RUN)(
    "the guide's Caddy block: login straight to Twitch, no detour",
    async () => {
      const proxyPort = freePort();
      const { port } = await startCuebot(`http://localhost:${proxyPort}`);
      const site = guideBlock("caddyfile")
        .replace("cue.example.com", `http://localhost:${proxyPort}`)
        .replace("127.0.0.1:8080", `127.0.0.1:${port}`);
      proxy = await startCaddy(site, proxyPort);
      const { movedTimes, session } = await loginThroughProxy(proxy.origin);
      expect(movedTimes).toBe(0);
      expect(session).toBeDefined();
    },
  );
});

describe("which forwarded host counts", () => {
  const LOGIN = "/auth/login?tz=Europe/Paris";

  test("X-Forwarded-Host from a peer that is not a trusted proxy is ignored: the login moves", async () => {
    h = await startIdentityHarness();
    const res = await h.request(LOGIN, {
      headers: {
        host: "127.0.0.1:8080",
        "x-forwarded-host": "localhost:8080",
        [TEST_CLIENT_IP_HEADER]: "127.0.0.1",
      },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${h.origin}${LOGIN}&moved=1`);
  });

  test("from a trusted proxy, X-Forwarded-Host and -Proto say where the browser is", async () => {
    h = await startIdentityHarness({
      configure: (c) => {
        c.trustProxy = true;
      },
    });
    const headers = { host: "127.0.0.1:8080", [TEST_CLIENT_IP_HEADER]: "127.0.0.1" };
    const atPublic = await h.request(LOGIN, {
      headers: { ...headers, "x-forwarded-host": "LOCALHOST:8080", "x-forwarded-proto": "http" },
    });
    expect(new URL(atPublic.headers.get("location") as string).origin).toBe(h.sim.authUrl);
    const wrongScheme = await h.request(LOGIN, {
      headers: { ...headers, "x-forwarded-host": "localhost:8080", "x-forwarded-proto": "https" },
    });
    expect(wrongScheme.headers.get("location")).toBe(`${h.origin}${LOGIN}&moved=1`);
  });

  test("a login that was moved once is never moved again", async () => {
    h = await startIdentityHarness();
    const res = await h.request(`${LOGIN}&moved=1`, { headers: { host: "127.0.0.1:8080" } });
    expect(new URL(res.headers.get("location") as string).origin).toBe(h.sim.authUrl);
  });
});
