/**
 * The import of a Nightbot list (POST /api/dashboard/custom-commands/import) takes bodies up to 1 MiB,
 * so a real list of 1,000 commands of 500 characters fits, for a request with the dashboard's session
 * cookie; every other route, and an anonymous import, keeps 64 KiB.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { BODY_CEILING_BYTES, IMPORT_BODY_BYTES, MAX_BODY_BYTES } from "../../../server/http/body-limit.ts";
import { listen, type RunningServer } from "../../../server/listen.ts";
import { LAST_CHUNK, rawRequest } from "../../helpers/raw-http.ts";
import { type IdentityHarness, startIdentityHarness } from "../../helpers/twitch.ts";

let h: IdentityHarness | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop(1000);
  await h?.stop();
  server = h = undefined;
});

const IMPORT = "/api/dashboard/custom-commands/import";

const tooLarge = (size: string) => ({
  status: 413,
  error: { code: "payload_too_large", message: `Request bodies may be at most ${size}.` },
});

/** A Nightbot `GET /1/commands` answer of `n` commands, each message `length` characters. */
function nightbotList(n: number, length: number) {
  const commands = Array.from({ length: n }, (_, i) => ({
    _id: `5f1c2a9e8b7d6c5a4e3f${String(i).padStart(4, "0")}`,
    createdAt: "2021-03-02T18:04:11.205Z",
    updatedAt: "2024-06-11T20:15:42.918Z",
    name: `!cmd${i}`,
    message: `${i} `.padEnd(length, "m"),
    coolDown: 30,
    count: i,
    userLevel: "everyone",
  }));
  return { _total: n, status: 200, commands };
}

async function loggedIn() {
  h = await startIdentityHarness({
    configure: (c) => {
      c.port = 0;
    },
  });
  const running = listen(h.ctx, h.app);
  server = running;
  const { cookie } = await h.login("cuebotdemo");
  const post = (path: string, body: string) =>
    fetch(`${running.url}${path}`, {
      method: "POST",
      headers: { cookie, origin: h!.origin, "content-type": "application/json" },
      body,
    });
  return { server: running, cookie, post };
}

/** `text` sent chunked (no Content-Length) in pieces of 10,000 characters, on a raw socket; no cookie when "". */
function chunked(port: number, path: string, cookie: string, text: string) {
  const pieces = text.match(/[\s\S]{1,10000}/g) ?? [];
  return rawRequest(port, [
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n${cookie ? `Cookie: ${cookie}\r\n` : ""}Origin: ${h!.origin}\r\n\r\n`,
    ...pieces.map((piece) => `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`),
    LAST_CHUNK,
  ]);
}

describe("the import's larger body", () => {
  test("a Nightbot list of 1,000 commands of 500 characters previews fine, announced or chunked", async () => {
    const { server, cookie, post } = await loggedIn();
    const text = JSON.stringify({ format: "nightbot", body: nightbotList(1000, 500) });
    expect(Buffer.byteLength(text)).toBeGreaterThan(500 * 1024);
    expect(Buffer.byteLength(text)).toBeLessThan(IMPORT_BODY_BYTES);
    const res = await post(IMPORT, text);
    expect(res.status).toBe(200);
    const data = ((await res.json()) as { data: { applied: boolean; add: { name: string }[] } }).data;
    expect(data.applied).toBe(false);
    expect(data.add.length).toBeGreaterThan(0);
    expect(data.add[0]?.name).toBe("cmd0");
    const viaChunks = await chunked(server.port, IMPORT, cookie, text);
    expect(viaChunks.status).toBe(200);
    expect(JSON.parse(viaChunks.body).data.applied).toBe(false);
  });

  test("the same body on any other route is refused 413 at 64 KiB, as before", async () => {
    const { server, cookie, post } = await loggedIn();
    const text = JSON.stringify({ format: "nightbot", body: nightbotList(1000, 500) });
    for (const path of [
      "/api/dashboard/custom-commands/test",
      "/api/dashboard/overlay/state",
      "/auth/logout",
    ]) {
      const res = await post(path, text);
      expect({ path, status: res.status }).toEqual({ path, status: 413 });
      expect(await res.json()).toEqual(tooLarge("64 KiB"));
    }
    // A path that only looks like the import's does not get its cap.
    const lookalike = await post(`${IMPORT}x`, text);
    expect(lookalike.status).toBe(413);
    const chunkedElsewhere = await chunked(server.port, "/api/dashboard/custom-commands/test", cookie, text);
    expect(chunkedElsewhere.status).toBe(413);
    expect(JSON.parse(chunkedElsewhere.body)).toEqual(tooLarge("64 KiB"));
    expect(MAX_BODY_BYTES).toBe(64 * 1024);
  });

  test("an import over 1 MiB is refused 413 in the contract's shape, announced or chunked", async () => {
    const { server, cookie, post } = await loggedIn();
    const over = JSON.stringify({ format: "nightbot", body: nightbotList(2000, 500) });
    expect(Buffer.byteLength(over)).toBeGreaterThan(IMPORT_BODY_BYTES);
    expect(Buffer.byteLength(over)).toBeLessThan(BODY_CEILING_BYTES);
    const res = await post(IMPORT, over);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(tooLarge("1 MiB"));
    const viaChunks = await chunked(server.port, IMPORT, cookie, over);
    expect(viaChunks.status).toBe(413);
    expect(JSON.parse(viaChunks.body)).toEqual(tooLarge("1 MiB"));
    expect(viaChunks.closed).toBe(true);
  });

  test("the import's cap needs a session: anonymous bodies are cut at 64 KiB, announced or chunked", async () => {
    const { server, cookie } = await loggedIn();
    const text = JSON.stringify({ format: "nightbot", body: nightbotList(1000, 500) });
    const anonymous = (body: string) =>
      fetch(`${server.url}${IMPORT}`, {
        method: "POST",
        headers: { origin: h!.origin, "content-type": "application/json" },
        body,
      });
    // Announced: refused on its length, unread.
    const announced = await anonymous(text);
    expect(announced.status).toBe(413);
    expect(await announced.json()).toEqual(tooLarge("64 KiB"));
    // Chunked: read no further than 64 KiB, then refused.
    const viaChunks = await chunked(server.port, IMPORT, "", text);
    expect(viaChunks.status).toBe(413);
    expect(JSON.parse(viaChunks.body)).toEqual(tooLarge("64 KiB"));
    expect(viaChunks.closed).toBe(true);
    // Under 64 KiB, the route answers as before: no session, 401.
    const small = JSON.stringify({ format: "nightbot", body: nightbotList(10, 100) });
    expect((await anonymous(small)).status).toBe(401);
    expect((await chunked(server.port, IMPORT, "", small)).status).toBe(401);
    // Another cookie is no session: 64 KiB too.
    const other = await chunked(server.port, IMPORT, "theme=dark; xapp_sess=1", text);
    expect(other.status).toBe(413);
    // The same 600 KiB, chunked, with the session: read whole and previewed.
    const loggedInChunks = await chunked(server.port, IMPORT, cookie, text);
    expect(loggedInChunks.status).toBe(200);
  });

  test("a forged session cookie buys no larger body: 100 KiB → 413, announced or chunked; a real session's is read", async () => {
    const { server, cookie } = await loggedIn();
    const text = JSON.stringify({ format: "nightbot", body: nightbotList(200, 500) });
    expect(Buffer.byteLength(text)).toBeGreaterThan(100 * 1024);
    const forgedCookies = [
      // Shaped like a real token (43 base64url characters), naming no session.
      `app_sess=${"A".repeat(43)}`,
      "app_sess=forged",
    ];
    for (const forged of forgedCookies) {
      const announced = await fetch(`${server.url}${IMPORT}`, {
        method: "POST",
        headers: { cookie: forged, origin: h!.origin, "content-type": "application/json" },
        body: text,
      });
      expect({ forged, status: announced.status }).toEqual({ forged, status: 413 });
      expect(await announced.json()).toEqual(tooLarge("64 KiB"));
      const viaChunks = await chunked(server.port, IMPORT, forged, text);
      expect(viaChunks.status).toBe(413);
      expect(JSON.parse(viaChunks.body)).toEqual(tooLarge("64 KiB"));
      expect(viaChunks.closed).toBe(true);
    }
    // A session that has ended (logged out) is no better than a forged one.
    const ended = (await h!.login("otherstreamer")).cookie;
    const logout = await h!.request("/auth/logout", {
      method: "POST",
      headers: { cookie: ended, origin: h!.origin },
    });
    expect(logout.status).toBeLessThan(400);
    expect((await chunked(server.port, IMPORT, ended, text)).status).toBe(413);
    const real = await fetch(`${server.url}${IMPORT}`, {
      method: "POST",
      headers: { cookie, origin: h!.origin, "content-type": "application/json" },
      body: text,
    });
    expect(real.status).toBe(200);
    expect((await chunked(server.port, IMPORT, cookie, text)).status).toBe(200);
  });
});
