import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findAccountByLogin } from "../../../db/accounts.ts";
import { TEST_CLIENT_IP_HEADER } from "../../helpers/context.ts";
import { type IdentityHarness, startIdentityHarness } from "../../helpers/twitch.ts";

let h: IdentityHarness;
afterEach(async () => {
  await h.stop();
});

/** cuebot beside the Twitch simulator, with no Twitch credentials: the first run. */
async function firstRun(): Promise<IdentityHarness> {
  h = await startIdentityHarness({
    configure: (config) => {
      config.twitch.clientId = null;
      config.twitch.clientSecret = null;
    },
  });
  return h;
}

const HTML = { accept: "text/html,application/xhtml+xml" };
const token = () => h.ctx.setupLink!.token!;
const configFile = () =>
  JSON.parse(readFileSync(join(h.dataDir, "config.json"), "utf8")) as Record<string, unknown>;

function post(fields: Record<string, string>, headers: Record<string, string> = HTML): Promise<Response> {
  return h.request("/setup", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

const goodFields = (extra: Record<string, string> = {}) => ({
  token: token(),
  client_id: h.sim.client.id,
  client_secret: h.sim.client.secret,
  ...extra,
});

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe("the setup link's token", () => {
  test("is 32 random bytes in base64url, new for each server", async () => {
    await firstRun();
    const first = token();
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = await startIdentityHarness({
      configure: (config) => {
        config.twitch.clientId = null;
        config.twitch.clientSecret = null;
      },
    });
    try {
      expect(other.ctx.setupLink!.token).not.toBe(first);
    } finally {
      await other.stop();
    }
  });

  test("there is none when Twitch is configured at start", async () => {
    h = await startIdentityHarness();
    expect(h.ctx.setupLink).toBeNull();
  });
});

describe("GET /setup", () => {
  test("with the token: the steps, the exact redirect URL, Twitch's console and the form", async () => {
    await firstRun();
    const response = await h.request(`/setup?token=${token()}`, { headers: HTML });
    expect(response.status).toBe(200);
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const page = await response.text();
    expect(page).toContain('<code class="line" id="redirect-url">http://localhost:8080/auth/callback</code>');
    expect(page).toContain('href="https://dev.twitch.tv/console/apps/create"');
    expect(page).toContain('<form method="post" action="/setup"');
    for (const name of ["token", "client_id", "client_secret", "owner"])
      expect(page).toContain(`name="${name}"`);
    expect(page).toContain(`value="${token()}"`);
    expect(page).toContain("Chat Bot");
    expect(page).toContain("Confidential");
    expect(page).toContain("New Secret");
    expect(page).toContain("npm start -- --demo");
    expect(page).not.toContain("`");
  });

  test("without a token, or a wrong one: 403 forbidden, no form, counted as a failed authentication", async () => {
    await firstRun();
    for (const path of [
      "/setup",
      "/setup?token=",
      `/setup?token=${token().slice(1)}x`,
      `/setup?token=${token()}x`,
    ]) {
      const page = await h.request(path, { headers: HTML });
      expect(page.status).toBe(403);
      const text = await page.text();
      expect(text).not.toContain("<form");
      expect(text).not.toContain(token());
      expect(page.headers.get("x-ratelimit-limit")).toBe("60");
      const json = await h.request(path);
      expect(json.status).toBe(403);
      expect((await errorOf(json)).code).toBe("forbidden");
    }
  });

  test("guessing is stopped by the per-IP limit of failed authentications", async () => {
    await firstRun();
    const guess = () =>
      h.request("/setup?token=guess", { headers: { [TEST_CLIENT_IP_HEADER]: "203.0.113.9" } });
    for (let i = 0; i < 60; i++) expect((await guess()).status).toBe(403);
    const refused = await guess();
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).code).toBe("rate_limited");
  });
});

describe("POST /setup", () => {
  test("stores the credentials and the owner beside the other settings, 303 to /, and login works at once", async () => {
    await firstRun();
    writeFileSync(join(h.dataDir, "config.json"), JSON.stringify({ publicUrl: "http://localhost:8080" }));
    expect((await h.request("/auth/login")).status).toBe(503);

    const done = await post(goodFields({ owner: "@CuebotDemo" }));
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/");
    expect(configFile()).toEqual({
      publicUrl: "http://localhost:8080",
      twitchClientId: h.sim.client.id,
      twitchClientSecret: h.sim.client.secret,
      owner: "cuebotdemo",
    });

    const login = await h.request("/auth/login");
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toStartWith(`${h.sim.authUrl}/oauth2/authorize?`);
    // The owner's first login makes a Partner account; anyone else's a Default one.
    await h.login("cuebotdemo");
    expect((await findAccountByLogin(h.ctx.db, "cuebotdemo"))?.role).toBe("Partner");
  });

  test("the token is spent: the link and a second post are refused and change nothing", async () => {
    await firstRun();
    const used = token();
    expect((await post(goodFields())).status).toBe(303);
    const stored = configFile();
    expect((await h.request(`/setup?token=${used}`, { headers: HTML })).status).toBe(403);
    const again = await post({ token: used, client_id: "other", client_secret: "other" }, {});
    expect(again.status).toBe(403);
    expect((await errorOf(again)).code).toBe("forbidden");
    expect(configFile()).toEqual(stored);
  });

  test("a wrong token changes nothing: 403 forbidden", async () => {
    await firstRun();
    const wrong = await post({ ...goodFields(), token: "not-the-token" }, {});
    expect(wrong.status).toBe(403);
    expect((await errorOf(wrong)).code).toBe("forbidden");
    expect(configFile()).toEqual({});
    expect((await h.request("/auth/login")).status).toBe(503);
  });

  test("bad fields: 400 with the form again naming the field (or bad_request), token not spent", async () => {
    await firstRun();
    const cases: [Record<string, string>, string][] = [
      [{ client_id: "" }, "client_id"],
      [{ client_id: "abc def" }, "client_id"],
      [{ client_secret: "   " }, "client_secret"],
      [{ client_secret: "x".repeat(500) }, "client_secret"],
      [{ client_secret: "sécret" }, "client_secret"],
      [{ owner: "not a login" }, "owner"],
      [{ owner: "x".repeat(26) }, "owner"],
      [{ owner: "<script>" }, "owner"],
    ];
    for (const [change, field] of cases) {
      const page = await post(goodFields(change));
      expect(page.status).toBe(400);
      const html = await page.text();
      expect(html).toContain(`id="${field}-error"`);
      expect(html).toContain('<form method="post" action="/setup"');
      expect(html).toContain(`id="${field}"`);
      expect(html).not.toContain("<script>");
      // The secret is never sent back.
      expect(html).not.toContain(h.sim.client.secret);
      const json = await post(goodFields(change), {});
      expect(json.status).toBe(400);
      const error = await errorOf(json);
      expect(error.code).toBe("bad_request");
      expect(error.message).toContain(field);
    }
    expect(configFile()).toEqual({});
    expect((await post(goodFields())).status).toBe(303);
  });

  test("accepts a JSON body too", async () => {
    await firstRun();
    const done = await h.request("/setup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(goodFields({ owner: "cuebotdemo" })),
    });
    expect(done.status).toBe(303);
    expect(configFile()).toMatchObject({ twitchClientId: h.sim.client.id, owner: "cuebotdemo" });
    expect(h.ctx.owner).toBe("cuebotdemo");
  });

  test("when Twitch is already configured: 403 forbidden and nothing changes", async () => {
    h = await startIdentityHarness();
    const page = await h.request("/setup?token=anything", { headers: HTML });
    expect(page.status).toBe(403);
    expect(await page.text()).not.toContain("<form");
    const refused = await post({ token: "anything", client_id: "a", client_secret: "b" }, {});
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).code).toBe("forbidden");
    expect(configFile()).toEqual({});
  });

  test("a post with a session cookie and no Origin is still refused by the CSRF check", async () => {
    await firstRun();
    const refused = await post(goodFields(), { cookie: "app_sess=whatever" });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).code).toBe("bad_origin");
    expect(configFile()).toEqual({});
  });
});

describe("the landing page", () => {
  test("while Twitch is not configured: no dead login button nor dashboard link, but the setup link, the command, the demo and the API documentation", async () => {
    await firstRun();
    const before = await (await h.request("/")).text();
    expect(before).not.toContain('id="login"');
    expect(before).toContain("setup link");
    expect(before).toContain(
      "npm run cuebot -- init --twitch-client-id &#60;id&#62; --twitch-client-secret &#60;secret&#62;",
    );
    expect(before).toContain("npm start -- --demo");
    expect(before).not.toContain(token());
    expect(before).not.toContain("`");
    // Nobody can be logged in yet: no way to a dashboard, but the API documentation stays.
    expect(before).not.toContain("Already logged in");
    expect(before).not.toContain('href="/dashboard"');
    expect(before).toContain('<a href="/docs">API documentation</a>');
    expect((await post(goodFields())).status).toBe(303);
    const after = await (await h.request("/")).text();
    expect(after).toContain('id="login"');
    expect(after).not.toContain("not set up yet");
    expect(after).toContain('Already logged in? <a href="/dashboard">Open the dashboard</a>');
  });

  test("/auth/login's 503 names the command as it works here, the setup link and the demo, without backticks", async () => {
    await firstRun();
    const json = await h.request("/auth/login");
    expect(json.status).toBe(503);
    const { code, message } = await errorOf(json);
    expect(code).toBe("login_not_configured");
    expect(message).toContain("the setup link printed when cuebot started");
    expect(message).toContain(
      "npm run cuebot -- init --twitch-client-id <id> --twitch-client-secret <secret>",
    );
    expect(message).toContain("npm start -- --demo");
    expect(message).not.toContain("`");
    expect(message).not.toContain(token());
    const page = await (await h.request("/auth/login", { headers: HTML })).text();
    expect(page).not.toContain("`");
  });
});

test("/docs lists the setup page and its post", async () => {
  await firstRun();
  const docs = (await (await h.request("/docs/json")).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  expect(Object.keys(docs.paths["/setup"] ?? {}).sort()).toEqual(["get", "post"]);
});
