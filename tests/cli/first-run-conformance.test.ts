// The first run finished in the browser, checked from outside as a user meets it (CONTRACT §2 "The
// first run can be finished in the browser", `init --owner`, §4's owner rule): real `serve` processes
// on fresh data folders, pointed at the Twitch simulator, and only what they print, answer and store.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTwitchSimulator, type TwitchSimulator } from "../../server/sim/twitch/server.ts";
import { Scratch, type ServeProcess } from "../helpers/cli.ts";
import { cookieHeader } from "../helpers/twitch.ts";

const scratch = new Scratch();
let sim: TwitchSimulator;
beforeAll(() => {
  sim = startTwitchSimulator({});
});
afterEach(() => scratch.cleanup());
afterAll(() => sim.stop());

const LINK = /(https?:\/\/[^\s"]+\/setup\?token=([A-Za-z0-9_-]{43}))/;
const HTML = { accept: "text/html,application/xhtml+xml" };
const FORM = { "content-type": "application/x-www-form-urlencoded" };

interface FirstRun {
  server: ServeProcess;
  dataDir: string;
  cwd: string;
  /** The setup link as printed, and its token. */
  link: string;
  token: string;
  /** Where requests go: the public URL's origin when it is this machine (/auth/login moves other hosts there). */
  base: string;
}

const simEnv = () => ({
  CUEBOT_TWITCH_AUTH_URL: sim.authUrl,
  CUEBOT_TWITCH_API_URL: sim.helixUrl,
  CUEBOT_TWITCH_EVENTSUB_URL: sim.eventsubUrl,
});

/** `serve --port 0` on a fresh data folder (after `init` when `init` is given), with the link it printed. */
async function firstRun(
  options: { args?: string[]; env?: Record<string, string>; init?: string[]; config?: object } = {},
): Promise<FirstRun> {
  const cwd = scratch.dir("cuebot-first-run-");
  const dataDir = join(cwd, "data");
  if (options.init) {
    const init = await scratch.run(["init", "--data-dir", dataDir, ...options.init], { cwd });
    expect(init.code).toBe(0);
  }
  if (options.config)
    writeFileSync(join(dataDir, "config.json"), JSON.stringify(options.config), { mode: 0o600 });
  const server = await scratch.serve(
    ["serve", "--port", "0", "--data-dir", dataDir, ...(options.args ?? [])],
    {
      cwd,
      env: { CUEBOT_LOG_FORMAT: "json", ...simEnv(), ...options.env },
    },
  );
  const found = LINK.exec(server.stdout());
  const publicUrl = server.url.replace("127.0.0.1", "localhost");
  return { server, dataDir, cwd, link: found?.[1] ?? "", token: found?.[2] ?? "", base: publicUrl };
}

const configOf = (dataDir: string) =>
  JSON.parse(readFileSync(join(dataDir, "config.json"), "utf8")) as Record<string, unknown>;

const postSetup = (run: FirstRun, fields: Record<string, string>, headers: Record<string, string> = FORM) =>
  fetch(`${run.base}/setup`, {
    method: "POST",
    redirect: "manual",
    headers,
    body:
      headers["content-type"] === "application/json"
        ? JSON.stringify(fields)
        : new URLSearchParams(fields).toString(),
  });

const credentials = (token: string, owner?: string) => ({
  token,
  client_id: sim.client.id,
  client_secret: sim.client.secret,
  ...(owner === undefined ? {} : { owner }),
});

interface ErrorBody {
  status: number;
  error: { code: string; message: string };
}

/** The whole browser login as `login`, against the running server and the simulator. */
async function logIn(run: FirstRun, login: string): Promise<Response> {
  const start = await fetch(`${run.base}/auth/login`, { redirect: "manual" });
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("location")!);
  expect(authorize.origin + authorize.pathname).toBe(`${sim.authUrl}/oauth2/authorize`);
  authorize.searchParams.set("as", login);
  authorize.searchParams.set("decision", "approve");
  const atProvider = await fetch(authorize, { redirect: "manual" });
  expect(atProvider.status).toBe(302);
  const callback = new URL(atProvider.headers.get("location")!);
  return fetch(`${run.base}${callback.pathname}${callback.search}`, {
    redirect: "manual",
    headers: { cookie: cookieHeader(start.headers.getSetCookie()) },
  });
}

async function rolesOf(run: FirstRun): Promise<Record<string, string>> {
  const list = await scratch.run(["role", "list", "--json", "--data-dir", run.dataDir], { cwd: run.cwd });
  expect(list.code).toBe(0);
  const rows = JSON.parse(list.stdout) as { login: string; role: string }[];
  return Object.fromEntries(rows.map((row) => [row.login, row.role]));
}

describe("the setup link as serve prints it", () => {
  test("pretty with --log error: the link alone on its line, with the public URL", async () => {
    const run = await firstRun({
      args: ["--log", "error", "--public-url", "https://example.test"],
      env: { CUEBOT_LOG_FORMAT: "pretty" },
    });
    const lines = run.server.stdout().split("\n").filter(Boolean);
    expect(lines.filter((line) => line.includes("/setup?token="))).toEqual([
      expect.stringMatching(/^https:\/\/example\.test\/setup\?token=[A-Za-z0-9_-]{43}$/),
    ]);
  });

  test("json: one object whose msg is the link; the token appears nowhere else, even after requests", async () => {
    const run = await firstRun();
    const lines = run.server
      .stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => String(line.msg).includes(run.token))).toEqual([
      expect.objectContaining({ msg: run.link }),
    ]);
    await fetch(`${run.base}/setup?token=${run.token}`);
    await postSetup(run, credentials(run.token));
    expect(await run.server.stop()).toBe(0);
    expect(`${run.server.stdout()}${run.server.stderr()}`.split(run.token)).toHaveLength(2);
    expect(`${run.server.stdout()}${run.server.stderr()}`).not.toContain(sim.client.secret);
  });

  test("--log debug: the request log never shows the token, nor the secret posted", async () => {
    const run = await firstRun({ args: ["--log", "debug"] });
    await fetch(`${run.base}/setup?token=${run.token}`, { headers: HTML });
    await fetch(`${run.base}/setup?token=${run.token}x`, { headers: HTML });
    const done = await postSetup(run, credentials(run.token), {
      "content-type": "application/x-www-form-urlencoded; charset=UTF-8",
    });
    expect(done.status).toBe(303);
    await fetch(`${run.base}/setup?token=${run.token}`);
    expect(await run.server.stop()).toBe(0);
    const printed = `${run.server.stdout()}${run.server.stderr()}`;
    expect(printed.split(run.token)).toHaveLength(2);
    expect(printed).not.toContain(sim.client.secret);
  });

  test("the warning line says how, in the checkout's form, mentions the link (without a token) and --demo", async () => {
    const run = await firstRun();
    const warning = run.server
      .stdout()
      .split("\n")
      .find((line) => line.includes("not configured"));
    expect(warning).toContain("npm run cuebot -- init");
    expect(warning).toContain("setup link");
    expect(warning).toContain("--demo");
    expect(warning).not.toContain("token=");
  });

  test("none once setup is done: the next start prints no link and login works", async () => {
    const run = await firstRun();
    expect((await postSetup(run, credentials(run.token))).status).toBe(303);
    expect(await run.server.stop()).toBe(0);
    const again = await scratch.serve(["serve", "--port", "0", "--data-dir", run.dataDir], {
      cwd: run.cwd,
      env: { CUEBOT_LOG_FORMAT: "json", ...simEnv() },
    });
    expect(again.stdout()).not.toContain("/setup?token=");
    expect(again.stdout()).not.toContain("not configured");
    expect((await fetch(`${again.url}/auth/login`, { redirect: "manual" })).status).toBe(302);
  });
});

describe("GET /setup", () => {
  test("no token, a wrong one, the right one", async () => {
    const run = await firstRun();
    for (const query of ["", "?token=", `?token=${run.token.slice(0, -1)}x`, `?token=${run.token}x`]) {
      const page = await fetch(`${run.base}/setup${query}`, { headers: HTML });
      expect({ query, status: page.status }).toEqual({ query, status: 403 });
      const html = await page.text();
      expect(html).not.toContain("<form");
      expect(html).not.toContain(run.token);
      const json = await fetch(`${run.base}/setup${query}`);
      expect(json.status).toBe(403);
      expect(((await json.json()) as ErrorBody).error.code).toBe("forbidden");
    }
    const page = await fetch(`${run.base}/setup?token=${run.token}`, { headers: HTML });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("http://localhost:");
    expect(html).toContain(`${new URL(run.link).origin}/auth/callback`);
    expect(html).toContain('href="https://dev.twitch.tv/console/apps/create"');
    expect(html).toMatch(/<form[^>]*method="post"[^>]*action="\/setup"/);
    for (const name of ["token", "client_id", "client_secret", "owner"])
      expect(html).toContain(`name="${name}"`);
    expect(html).not.toMatch(/enctype="multipart/);
  });

  test("the page holds the token: no Referer leaves it, nothing caches it, and the usual security headers", async () => {
    const run = await firstRun();
    const page = await fetch(`${run.base}/setup?token=${run.token}`, { headers: HTML });
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(page.headers.get("content-type")).toStartWith("text/html");
    const landing = await fetch(`${run.base}/`, { headers: HTML });
    for (const header of ["content-security-policy", "x-content-type-options", "x-frame-options"]) {
      expect({ header, value: page.headers.get(header) }).toEqual({
        header,
        value: landing.headers.get(header),
      });
      expect(page.headers.get(header)).not.toBeNull();
    }
    // External links open without the opener and without a Referer either.
    const html = await page.text();
    for (const link of html.match(/<a [^>]*href="https?:[^"]*"[^>]*>/g) ?? [])
      expect(link).toContain("noreferrer");
  });

  test("--public-url https://example.test: the link and the redirect URL to register are on it", async () => {
    const run = await firstRun({ args: ["--public-url", "https://example.test"] });
    expect(run.link).toBe(`https://example.test/setup?token=${run.token}`);
    const html = await (await fetch(`${run.base}/setup?token=${run.token}`, { headers: HTML })).text();
    expect(html).toContain(">https://example.test/auth/callback<");
  });
});

describe("POST /setup", () => {
  test("form-encoded with the right token: config.json keeps other keys, mode 0600, 303 to /, login at once", async () => {
    const kept = { eventRetentionDays: 7, twitchExtraScopes: "moderator:read:followers" };
    const run = await firstRun({ init: [], config: kept });
    const done = await postSetup(run, credentials(run.token, "CuebotDemo"));
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/");
    expect(configOf(run.dataDir)).toEqual({
      ...kept,
      twitchClientId: sim.client.id,
      twitchClientSecret: sim.client.secret,
      owner: "cuebotdemo",
    });
    expect(statSync(join(run.dataDir, "config.json")).mode & 0o777).toBe(0o600);
    const login = await fetch(`${run.base}/auth/login`, { redirect: "manual" });
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toStartWith(`${sim.authUrl}/oauth2/authorize?`);
    const authorize = new URL(login.headers.get("location")!).searchParams;
    expect(authorize.get("redirect_uri")).toBe(`${run.base}/auth/callback`);
    expect(authorize.get("client_id")).toBe(sim.client.id);
    // The home page it was sent to now offers the login.
    const landing = await (await fetch(`${run.base}/`, { headers: HTML })).text();
    expect(landing).toContain('href="/auth/login"');
    expect(landing).not.toContain("not set up yet");
  });

  test("the secret is stored as init stores it: init afterwards keeps them and says so", async () => {
    const run = await firstRun();
    expect((await postSetup(run, credentials(run.token))).status).toBe(303);
    const byInit = scratch.dir();
    await scratch.run(
      [
        "init",
        "--data-dir",
        join(byInit, "data"),
        "--twitch-client-id",
        sim.client.id,
        "--twitch-client-secret",
        sim.client.secret,
      ],
      { cwd: byInit },
    );
    expect(configOf(run.dataDir)).toEqual(configOf(join(byInit, "data")));
    const init = await scratch.run(["init", "--data-dir", run.dataDir, "--twitch-client-id", "other"], {
      cwd: run.cwd,
    });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("kept");
    expect(configOf(run.dataDir).twitchClientId).toBe(sim.client.id);
  });

  test("JSON clients: the same fields as JSON work; refusals are the error body", async () => {
    const run = await firstRun();
    const json = { "content-type": "application/json" };
    const missing = await postSetup(run, { token: run.token, client_id: sim.client.id }, json);
    expect(missing.status).toBe(400);
    const body = (await missing.json()) as ErrorBody;
    expect(body).toEqual({
      status: 400,
      error: { code: "bad_request", message: expect.stringContaining("client_secret") },
    });
    const wrong = await postSetup(run, credentials("x".repeat(43)), json);
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as ErrorBody).error.code).toBe("forbidden");
    expect(() => configOf(run.dataDir)).not.toThrow();
    expect(configOf(run.dataDir).twitchClientId).toBeUndefined();
    const done = await postSetup(run, credentials(run.token), json);
    expect(done.status).toBe(303);
    expect(configOf(run.dataDir).twitchClientSecret).toBe(sim.client.secret);
  });

  test("missing fields: 400 naming the field, nothing stored, the token still works", async () => {
    const run = await firstRun();
    const incomplete: Record<string, string>[] = [
      { token: run.token },
      { token: run.token, client_id: sim.client.id },
      { token: run.token, client_secret: sim.client.secret },
      { token: run.token, client_id: " ", client_secret: sim.client.secret },
    ];
    for (const fields of incomplete) {
      const answer = await postSetup(run, fields, { ...FORM, ...HTML });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain("<form");
    }
    const noToken = await postSetup(run, { client_id: sim.client.id, client_secret: sim.client.secret });
    expect(noToken.status).toBe(403);
    expect(configOf(run.dataDir).twitchClientId).toBeUndefined();
    expect((await fetch(`${run.base}/auth/login`)).status).toBe(503);
    expect((await postSetup(run, credentials(run.token))).status).toBe(303);
  });

  test("a wrong token: 403 page, nothing stored; twice with the right one: the second is 403 and changes nothing", async () => {
    const run = await firstRun();
    const wrong = await postSetup(run, credentials(`${run.token.slice(1)}A`), { ...FORM, ...HTML });
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).not.toContain("<form");
    expect(configOf(run.dataDir).twitchClientId).toBeUndefined();

    expect((await postSetup(run, credentials(run.token))).status).toBe(303);
    const stored = readFileSync(join(run.dataDir, "config.json"), "utf8");
    const second = await postSetup(run, {
      token: run.token,
      client_id: "attacker",
      client_secret: "attacker",
    });
    expect(second.status).toBe(403);
    expect(((await second.json()) as ErrorBody).error.code).toBe("forbidden");
    expect(readFileSync(join(run.dataDir, "config.json"), "utf8")).toBe(stored);
    expect((await fetch(`${run.base}/setup?token=${run.token}`)).status).toBe(403);
  });

  test("concurrent posts with the right token: exactly one sets up", async () => {
    const run = await firstRun();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        postSetup(run, { token: run.token, client_id: `client${i}`, client_secret: `secret${i}` }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([303, 403, 403, 403, 403, 403, 403, 403]);
    const winner = answers.findIndex((answer) => answer.status === 303);
    expect(configOf(run.dataDir)).toEqual({
      twitchClientId: `client${winner}`,
      twitchClientSecret: `secret${winner}`,
    });
  });

  test("Twitch configured by environment: no link, GET and POST 403, config.json untouched", async () => {
    const run = await firstRun({
      init: ["--public-url", "http://localhost:9"],
      env: { CUEBOT_TWITCH_CLIENT_ID: sim.client.id, CUEBOT_TWITCH_CLIENT_SECRET: sim.client.secret },
    });
    expect(run.token).toBe("");
    const stored = readFileSync(join(run.dataDir, "config.json"), "utf8");
    const post = await postSetup(
      run,
      { token: "x".repeat(43), client_id: "a", client_secret: "b" },
      { ...FORM, ...HTML },
    );
    expect(post.status).toBe(403);
    expect(await post.text()).not.toContain("<form");
    expect((await postSetup(run, { token: "", client_id: "a", client_secret: "b" })).status).toBe(403);
    expect(readFileSync(join(run.dataDir, "config.json"), "utf8")).toBe(stored);
  });
});

describe("the owner (§4)", () => {
  test("named on the setup page: their first login creates them Partner; anyone else is Default", async () => {
    const run = await firstRun();
    expect((await postSetup(run, credentials(run.token, "@CuebotDemo"))).status).toBe(303);
    const owner = await logIn(run, "cuebotdemo");
    expect(owner.status).toBe(302);
    expect(owner.headers.get("location")).toBe("/dashboard");
    expect((await logIn(run, "viewer_anna")).status).toBe(302);
    expect(await rolesOf(run)).toEqual({ cuebotdemo: "Partner", viewer_anna: "Default" });
  });

  test("named by init --owner, with Twitch set up on the page: Partner", async () => {
    const run = await firstRun({ init: ["--owner", "OtherStreamer"] });
    expect((await postSetup(run, credentials(run.token))).status).toBe(303);
    expect(configOf(run.dataDir).owner).toBe("otherstreamer");
    expect((await logIn(run, "otherstreamer")).status).toBe(302);
    expect((await logIn(run, "cuebotdemo")).status).toBe(302);
    expect(await rolesOf(run)).toEqual({ otherstreamer: "Partner", cuebotdemo: "Default" });
  });

  test("named by CUEBOT_OWNER: Partner", async () => {
    const run = await firstRun({ env: { CUEBOT_OWNER: "VipCarla" } });
    expect((await postSetup(run, credentials(run.token))).status).toBe(303);
    expect((await logIn(run, "vipcarla")).status).toBe(302);
    expect(await rolesOf(run)).toEqual({ vipcarla: "Partner" });
  });

  test("no owner named: everyone is Default", async () => {
    const run = await firstRun();
    expect((await postSetup(run, credentials(run.token, ""))).status).toBe(303);
    expect(configOf(run.dataDir).owner).toBeUndefined();
    expect((await logIn(run, "cuebotdemo")).status).toBe(302);
    expect(await rolesOf(run)).toEqual({ cuebotdemo: "Default" });
  });
});

describe("while Twitch is not configured", () => {
  test("/auth/login: 503 login_not_configured naming the checkout's init, the link (no token) and --demo", async () => {
    const run = await firstRun();
    const json = await fetch(`${run.base}/auth/login`, { redirect: "manual" });
    expect(json.status).toBe(503);
    const body = (await json.json()) as ErrorBody;
    expect(body.error.code).toBe("login_not_configured");
    expect(body.error.message).toContain("npm run cuebot -- init");
    expect(body.error.message).toContain("setup link");
    expect(body.error.message).toContain("--demo");
    expect(body.error.message).not.toContain(run.token);
    expect(body.error.message).not.toContain("`");
    const page = await fetch(`${run.base}/auth/login`, { redirect: "manual", headers: HTML });
    expect(page.status).toBe(503);
    const html = await page.text();
    for (const words of ["npm run cuebot -- init", "setup link", "--demo"]) expect(html).toContain(words);
    expect(html).not.toContain(run.token);
    expect(html).not.toContain("`");
  });

  test("the landing page: no Log in with Twitch, but the init command, the setup link and the demo", async () => {
    const run = await firstRun();
    const html = await (await fetch(`${run.base}/`, { headers: HTML })).text();
    expect(html).not.toContain('href="/auth/login"');
    expect(html).not.toContain("Log in with Twitch");
    for (const words of ["npm run cuebot -- init", "setup link", "--demo"]) expect(html).toContain(words);
    expect(html).not.toContain(run.token);
  });

  test("a malformed config.json still stops start-up (the setup page never overwrites it)", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    expect((await scratch.run(["init", "--data-dir", dataDir], { cwd })).code).toBe(0);
    writeFileSync(join(dataDir, "config.json"), "{not json", { mode: 0o600 });
    const result = await scratch.run(["serve", "--port", "0", "--data-dir", dataDir], { cwd });
    expect(result.code).toBe(1);
  });
});

test("the demo prints no setup link and has no setup page", async () => {
  const run = await firstRun({ args: ["--demo"] });
  expect(run.token).toBe("");
  expect(run.server.stdout()).toContain("demo mode");
  expect((await fetch(`${run.base}/setup`, { headers: HTML })).status).toBe(403);
});

test("/docs/json lists GET and POST /setup", async () => {
  const run = await firstRun();
  const spec = (await (await fetch(`${run.base}/docs/json`)).json()) as { paths: Record<string, object> };
  expect(Object.keys(spec.paths["/setup"] ?? {}).sort()).toEqual(["get", "post"]);
});

describe("POST /setup beside the command line", () => {
  test("init configured Twitch while serve runs: the link then changes nothing (403), init's values stay", async () => {
    const run = await firstRun();
    const init = await scratch.run(
      [
        "init",
        "--data-dir",
        run.dataDir,
        "--twitch-client-id",
        sim.client.id,
        "--twitch-client-secret",
        sim.client.secret,
      ],
      { cwd: run.cwd },
    );
    expect(init.code).toBe(0);
    const stored = readFileSync(join(run.dataDir, "config.json"), "utf8");
    const page = await fetch(`${run.base}/setup?token=${run.token}`, { headers: HTML });
    expect(page.status).toBe(403);
    expect(await page.text()).not.toContain("<form");
    const post = await postSetup(run, { token: run.token, client_id: "other", client_secret: "other" });
    expect(post.status).toBe(403);
    expect(((await post.json()) as ErrorBody).error.code).toBe("forbidden");
    expect(readFileSync(join(run.dataDir, "config.json"), "utf8")).toBe(stored);
  });
});

test("config.json broken by hand while serve runs: the page opens, the post says what to fix, nothing is spent", async () => {
  const run = await firstRun();
  const file = join(run.dataDir, "config.json");
  writeFileSync(file, "{ half-edited", { mode: 0o600 });
  const page = await fetch(`${run.base}/setup?token=${run.token}`, { headers: HTML });
  expect(page.status).toBe(200);
  const post = await postSetup(run, credentials(run.token));
  expect(post.status).toBe(500);
  const body = (await post.json()) as ErrorBody;
  expect(body.error.message).toContain(`invalid setting ${file}: is not valid JSON`);
  expect(readFileSync(file, "utf8")).toBe("{ half-edited");
  writeFileSync(file, "{}", { mode: 0o600 });
  expect((await postSetup(run, credentials(run.token))).status).toBe(303);
});

test("guessing the token: failed attempts are counted per IP (60 a minute), then 429", async () => {
  const run = await firstRun();
  const first = await fetch(`${run.base}/setup?token=guess`);
  expect(first.status).toBe(403);
  expect(first.headers.get("x-ratelimit-limit")).toBe("60");
  for (let i = 1; i < 60; i++)
    await postSetup(run, { token: `guess${i}`, client_id: "a", client_secret: "b" });
  const refused = await fetch(`${run.base}/setup?token=${run.token.slice(1)}`);
  expect(refused.status).toBe(429);
  expect(((await refused.json()) as ErrorBody).error.code).toBe("rate_limited");
});
