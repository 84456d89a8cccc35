import { describe, expect, test } from "bun:test";
import type { LogFormat } from "../../../server/core/config.ts";
import { createLogger, REDACTED, redactUrl, unredactedLine } from "../../../server/core/log.ts";

const API_KEY = "0f8fad5b-d9cb-469f-a165-70867728950e";
const OVERLAY_TOKEN = "ovl_8Fh2kQ9xZr3LmN7pW1sT";
const SECRETS = [
  API_KEY,
  OVERLAY_TOKEN,
  "client-secret-123",
  "hunter2",
  "Bearer abc.def",
  "sess=xyz",
  "ak-2",
];

function capture(format: LogFormat) {
  const lines: string[] = [];
  const log = createLogger({ level: "debug", format, write: (line) => lines.push(line), now: () => 0 });
  return { log, lines };
}

describe("log redaction", () => {
  for (const format of ["json", "pretty"] as const) {
    test(`${format}: credentials in query strings and secret-named fields never reach the output`, () => {
      const { log, lines } = capture(format);
      log.info(`GET /api/followage?channel=a&apiKey=${API_KEY}`, {
        path: `/api/overlay/state?token=${OVERLAY_TOKEN}&x=1`,
        url: `http://127.0.0.1:8080/api/game/rank?API_KEY=${API_KEY}`,
        apiKey: API_KEY,
        overlayToken: OVERLAY_TOKEN,
        clientSecret: "client-secret-123",
        password: "hunter2",
        headers: { authorization: "Bearer abc.def", cookie: "sess=xyz", "x-api-key": "ak-2" },
        nested: [{ refreshToken: "hunter2" }],
        error: new Error(`fetch failed for /x?apiKey=${API_KEY}`),
        login: "alice",
        status: 200,
      });
      const output = lines.join("\n");
      for (const secret of SECRETS) expect(output).not.toContain(secret);
      expect(output).toContain(REDACTED);
      // What is not secret stays readable.
      expect(output).toContain("channel=a");
      expect(output).toContain("alice");
      expect(output).toContain("x=1");
    });
  }

  test("json: one object per line with level, time and msg", () => {
    const { log, lines } = capture("json");
    log.warn("careful", { token: "t0ps3cret", count: 3 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toEqual({
      level: "warn",
      time: "1970-01-01T00:00:00.000Z",
      msg: "careful",
      token: REDACTED,
      count: 3,
    });
  });

  test("below the level nothing is written; warnOnce warns once", () => {
    const lines: string[] = [];
    const log = createLogger({ level: "warn", format: "json", write: (line) => lines.push(line) });
    log.debug("no");
    log.info("no");
    log.warnOnce("k", "first");
    log.warnOnce("k", "first");
    log.error("yes");
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(["first", "yes"]);
  });

  test("redactUrl keeps everything but the credential values", () => {
    expect(redactUrl(`/a?apiKey=${API_KEY}&b=2#frag`)).toBe(`/a?apiKey=${REDACTED}&b=2#frag`);
    expect(redactUrl("/a?b=2&token=t&code=c&state=s")).toBe(
      `/a?b=2&token=${REDACTED}&code=${REDACTED}&state=${REDACTED}`,
    );
    expect(redactUrl("/a?api%4Bey=k")).toBe(`/a?api%4Bey=${REDACTED}`);
    expect(redactUrl("/healthz")).toBe("/healthz");
  });

  test("the overlay page's token in the path is redacted; the overlay API paths are left alone", () => {
    expect(redactUrl(`/overlay/${OVERLAY_TOKEN}`)).toBe(`/overlay/${REDACTED}`);
    expect(redactUrl(`GET /overlay/${OVERLAY_TOKEN}?theme=dark`)).toBe(`GET /overlay/${REDACTED}?theme=dark`);
    expect(redactUrl(`http://localhost:8080/overlay/${OVERLAY_TOKEN}/`)).toBe(
      `http://localhost:8080/overlay/${REDACTED}/`,
    );
    expect(redactUrl("/api/overlay/state")).toBe("/api/overlay/state");
    expect(redactUrl("/api/overlay/events")).toBe("/api/overlay/events");
    const { log, lines } = capture("json");
    log.debug("request", { method: "GET", path: `/overlay/${OVERLAY_TOKEN}`, status: 200 });
    expect(lines.join("\n")).not.toContain(OVERLAY_TOKEN);
  });
});

describe("the setup link's line (the one secret printed)", () => {
  const link = "http://localhost:8080/setup?token=AbC-_0123456789abcdefghijklmnopqrstuvwxyzAB";

  test("pretty: the bare link alone, to copy", () => {
    expect(unredactedLine("pretty", link, 0)).toBe(link);
  });

  test("json: one object like every other line, msg the link in full", () => {
    expect(JSON.parse(unredactedLine("json", link, 0))).toEqual({
      level: "warn",
      time: "1970-01-01T00:00:00.000Z",
      msg: link,
    });
  });

  test("the logger itself still redacts it", () => {
    const { log, lines } = capture("pretty");
    log.warn(link);
    expect(lines[0]).toContain(`token=${REDACTED}`);
  });
});
