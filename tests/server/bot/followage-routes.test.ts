import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { type BotHarness, NIGHTBOT, startBotHarness } from "../../helpers/bot.ts";

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const data = async (res: Response) => ((await res.json()) as { data: Record<string, unknown> }).data;
const error = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string } }).error;

describe("GET /api/followage", () => {
  test("answers the follow duration by the calendar, with DecAPI-style text", async () => {
    const res = await h.bot("/api/followage?channel=cuebotdemo&user=viewer_anna");
    expect(res.status).toBe(200);
    expect(await data(res)).toEqual({
      channel: "CuebotDemo",
      user: "Viewer_Anna",
      following: true,
      followed_at: "2024-01-15T10:00:00.000Z",
      duration: { years: 2, months: 10, weeks: 0, days: 6, hours: 2, minutes: 0, seconds: 0 },
      text: "2 years, 10 months",
    });
  });

  test("precision picks how many non-zero units the text shows", async () => {
    const three = await data(await h.bot("/api/followage?channel=cuebotdemo&user=viewer_anna&precision=3"));
    expect(three.text).toBe("2 years, 10 months, 6 days");
    const one = await data(await h.bot("/api/followage?channel=cuebotdemo&user=viewer_anna&precision=1"));
    expect(one.text).toBe("2 years");
  });

  test("as Nightbot calls it: headers fill channel and user, the answer is one plain line", async () => {
    const res = await h.bot("/api/followage", NIGHTBOT("viewer_anna"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("x-cuebot-status")).toBe("200");
    expect(res.headers.get("x-ratelimit-limit")).toBe("30");
    expect(await res.text()).toBe("2 years, 10 months");
  });

  test("an unreplaced template in precision counts as missing (the default 2)", async () => {
    const res = await h.bot("/api/followage?channel=cuebotdemo&user=viewer_anna&precision=$(2)");
    expect((await data(res)).text).toBe("2 years, 10 months");
  });

  test("chat-style names: @, any case, format=text", async () => {
    const res = await h.bot("/api/followage?channel=@CuebotDemo&user=@VIEWER_ANNA&format=text");
    expect(await res.text()).toBe("2 years, 10 months");
  });

  test("a viewer who does not follow gets a 200 sentence, not an error", async () => {
    const res = await h.bot("/api/followage?channel=cuebotdemo&user=lurker_eve");
    expect(res.status).toBe(200);
    const body = await data(res);
    expect(body).toMatchObject({ following: false, followed_at: null, duration: null });
    expect(body.text).toBe("Lurker_Eve does not follow CuebotDemo");
  });

  test("the follow date is cached, the elapsed time is recomputed on every hit", async () => {
    const first = await data(await h.bot("/api/followage?channel=cuebotdemo&user=vipcarla&precision=3"));
    expect(first.text).toBe("2 weeks");
    h.clock.advance(50_000); // within the Default role's 60 s command cache
    const later = await data(await h.bot("/api/followage?channel=cuebotdemo&user=vipcarla&precision=3"));
    expect(later.text).toBe("2 weeks, 50 seconds");
    expect(h.sim.calls.get("GET /helix/channels/followers")).toBe(1);
  });

  describe("bad input", () => {
    const cases: [string, string, number, string, RegExp][] = [
      ["missing user", "/api/followage?channel=cuebotdemo", 400, "bad_request", /"user" is missing/],
      ["empty user", "/api/followage?channel=cuebotdemo&user=", 400, "bad_request", /"user" is missing/],
      [
        "unreplaced template",
        "/api/followage?channel=cuebotdemo&user=$(touser)",
        400,
        "bad_request",
        /"user" is missing/,
      ],
      ["missing channel", "/api/followage?user=viewer_anna", 400, "bad_request", /"channel" is missing/],
      [
        "same channel and user",
        "/api/followage?channel=cuebotdemo&user=CuebotDemo",
        400,
        "bad_request",
        /^A user cannot follow themself\.$/,
      ],
      [
        "unknown user",
        "/api/followage?channel=cuebotdemo&user=nosuchviewer",
        404,
        "not_found",
        /^User not found: nosuchviewer$/,
      ],
      [
        "a name with a space",
        "/api/followage?channel=cuebotdemo&user=viewer%20anna",
        404,
        "not_found",
        /^That user was not found\.$/,
      ],
      [
        "a non-Latin name",
        "/api/followage?channel=cuebotdemo&user=%EB%8D%B0%EB%AA%A8",
        404,
        "not_found",
        /^That user was not found\.$/,
      ],
      [
        "another streamer's channel",
        "/api/followage?channel=otherstreamer&user=viewer_anna",
        403,
        "forbidden",
        /belongs to CuebotDemo/,
      ],
      [
        "precision 0",
        "/api/followage?channel=cuebotdemo&user=viewer_anna&precision=0",
        400,
        "bad_request",
        /"precision"/,
      ],
      [
        "precision 8",
        "/api/followage?channel=cuebotdemo&user=viewer_anna&precision=8",
        400,
        "bad_request",
        /"precision"/,
      ],
      [
        "precision abc",
        "/api/followage?channel=cuebotdemo&user=viewer_anna&precision=abc",
        400,
        "bad_request",
        /"precision"/,
      ],
    ];
    for (const [name, path, status, code, message] of cases) {
      test(`${name} → ${status} ${code}, and in text mode one sentence with status 200`, async () => {
        const res = await h.bot(path);
        expect(res.status).toBe(status);
        const err = await error(res);
        expect(err.code).toBe(code);
        expect(err.message).toMatch(message);
        const text = await h.bot(`${path}&format=text`);
        expect(text.status).toBe(200);
        expect(text.headers.get("x-cuebot-status")).toBe(String(status));
        expect(await text.text()).toMatch(message);
      });
    }
  });
});

describe("credentials on bot endpoints", () => {
  test("no key → 401 missing_api_key with the anonymous limit's headers", async () => {
    const res = await h.request("/api/followage?channel=cuebotdemo&user=viewer_anna");
    expect(res.status).toBe(401);
    expect((await error(res)).code).toBe("missing_api_key");
    expect(res.headers.get("x-ratelimit-limit")).toBe("100");
  });

  test("a wrong key → 401 invalid_api_key; conflicting keys → 400", async () => {
    const wrong = await h.request(
      "/api/followage?channel=cuebotdemo&user=viewer_anna&apiKey=00000000-0000-4000-8000-000000000000",
    );
    expect((await error(wrong)).code).toBe("invalid_api_key");
    const conflict = await h.request(
      `/api/followage?channel=cuebotdemo&user=viewer_anna&apiKey=${h.apiKey}`,
      {
        headers: { "x-api-key": "00000000-0000-4000-8000-000000000000" },
      },
    );
    expect(conflict.status).toBe(400);
    expect((await error(conflict)).code).toBe("conflicting_api_keys");
  });

  test("the X-Api-Key header works like the query parameter", async () => {
    const res = await h.request("/api/followage?channel=cuebotdemo&user=viewer_anna", {
      headers: { "x-api-key": h.apiKey },
    });
    expect(res.status).toBe(200);
  });

  test("an overlay token is refused on bot and panel routes, even beside a valid key or session", async () => {
    const rotated = await h.panel("/api/dashboard/security/rotate-overlay-token", { method: "POST" });
    const token = ((await data(rotated)) as { overlayToken: string }).overlayToken;
    expect(
      (await h.request(`/api/followage?channel=cuebotdemo&user=viewer_anna&token=${token}`)).status,
    ).toBe(401);
    expect((await h.bot(`/api/bot/coinflip?token=${token}`)).status).toBe(401);
    expect((await h.panel(`/api/dashboard/profile?token=${token}`)).status).toBe(401);
    expect((await h.bot(`/api/dashboard/get-clips?token=${token}`)).status).toBe(401);
  });

  test("after regenerating the key, the old key is refused and the new one accepted", async () => {
    const fresh = (
      (await data(await h.panel("/api/dashboard/security/regenerate-key", { method: "POST" }))) as {
        apiKey: string;
      }
    ).apiKey;
    const old = await h.request(`/api/followage?channel=cuebotdemo&user=viewer_anna&apiKey=${h.apiKey}`);
    expect(old.status).toBe(401);
    expect((await error(old)).code).toBe("invalid_api_key");
    const ok = await h.request(`/api/followage?channel=cuebotdemo&user=viewer_anna&apiKey=${fresh}`);
    expect(ok.status).toBe(200);
  });
});

describe("when Twitch or the grant fails, the answer is a clear sentence, never a 500", () => {
  test("the streamer revoked the connection → 503 reauth_required telling them to log in again", async () => {
    h.sim.disconnectUser("100001");
    const res = await h.bot("/api/followage?channel=cuebotdemo&user=viewer_anna&format=text");
    expect(res.headers.get("x-cuebot-status")).toBe("503");
    expect(await res.text()).toBe(
      `CuebotDemo needs to log in to cuebot again at ${h.origin} (the Twitch connection ended).`,
    );
  });

  for (const status of [429, 500, 503]) {
    test(`Helix ${status} → 502 upstream_error`, async () => {
      h.sim.knobs.failNext.set("GET /users", { status, times: 2 });
      const res = await h.bot("/api/followage?channel=cuebotdemo&user=viewer_anna");
      expect(res.status).toBe(502);
      expect(await error(res)).toEqual({
        code: "upstream_error",
        message: "Twitch is not answering right now; please try again in a moment.",
      });
    });
  }

  test("when Twitch's bucket is empty, calls fail fast until Ratelimit-Reset instead of hammering Twitch", async () => {
    h.sim.knobs.rateLimit.remaining = 2; // exactly this followage's two calls (user, follow)
    expect((await h.bot("/api/followage?channel=cuebotdemo&user=viewer_anna")).status).toBe(200);
    const before = h.sim.calls.get("GET /helix/users") ?? 0;
    const refused = await h.bot("/api/followage?channel=cuebotdemo&user=modbob");
    expect(refused.status).toBe(502);
    expect(h.sim.calls.get("GET /helix/users") ?? 0).toBe(before);
    h.clock.advance(61_000);
    expect((await h.bot("/api/followage?channel=cuebotdemo&user=modbob")).status).toBe(200);
  });

  test("a single 503 is retried once and the call succeeds", async () => {
    h.sim.knobs.failNext.set("GET /users", { status: 503, times: 1 });
    const res = await h.bot("/api/followage?channel=cuebotdemo&user=viewer_anna");
    expect(res.status).toBe(200);
  });

  test("Helix slower than 5 s → 502 upstream_error (the request never hangs)", async () => {
    h.sim.knobs.routeLatencyMs.set("GET /users", 6000);
    const started = performance.now();
    const res = await h.bot("/api/followage?channel=cuebotdemo&user=viewer_anna");
    expect(res.status).toBe(502);
    expect(performance.now() - started).toBeLessThan(5900);
  }, 15_000);
});

describe("duplicate query parameters", () => {
  test("the first value counts, as on every route", async () => {
    const one = await data(
      await h.bot("/api/followage?channel=cuebotdemo&user=viewer_anna&precision=1&precision=3"),
    );
    expect(one.text).toBe("2 years");
    const res = await h.bot("/api/followage?channel=cuebotdemo&user=viewer_anna&precision=9&precision=1");
    expect(res.status).toBe(400);
  });
});
