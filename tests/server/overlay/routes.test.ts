import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";

let h: BotHarness;
let token: string;
beforeEach(async () => {
  h = await startBotHarness();
  const res = await h.panel("/api/dashboard/security/rotate-overlay-token", { method: "POST" });
  token = ((await res.json()) as { data: { overlayToken: string } }).data.overlayToken;
});
afterEach(async () => {
  await h.stop();
});

async function readEvents(res: Response, count: number): Promise<string[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const blocks: string[] = [];
  let buffer = "";
  while (blocks.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value);
    const parts = buffer.split("\n\n");
    buffer = parts.pop() ?? "";
    blocks.push(...parts.filter((p) => p.includes("event: state")));
  }
  await reader.cancel();
  return blocks;
}

describe("overlays", () => {
  test("publish from the dashboard; the overlay token reads it, counted against the panel limit", async () => {
    const published = await h.panel("/api/dashboard/overlay/state", {
      method: "POST",
      body: JSON.stringify({ state: { title: "Now playing", text: "Ranked grind" } }),
    });
    expect(published.status).toBe(200);
    const res = await h.request(`/api/overlay/state?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBe("500");
    const body = (await res.json()) as { data: { state: object; version: number } };
    expect(body.data).toMatchObject({ state: { title: "Now playing", text: "Ranked grind" }, version: 1 });
    const byHeader = await h.request("/api/overlay/state", { headers: { "x-overlay-token": token } });
    expect(byHeader.status).toBe(200);
  });

  test("the SSE stream sends the current state, then every publish", async () => {
    const res = await h.request(`/api/overlay/events?token=${token}`);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = readEvents(res, 2);
    await Bun.sleep(20);
    await h.panel("/api/dashboard/overlay/state", {
      method: "POST",
      body: JSON.stringify({ state: { text: "hello" } }),
    });
    const [first, second] = await events;
    expect(first).toContain("id: 0");
    expect(second).toContain("id: 1");
    expect(second).toContain('"text":"hello"');
  });

  test("a reconnect with Last-Event-ID gets only what it missed", async () => {
    await h.panel("/api/dashboard/overlay/state", {
      method: "POST",
      body: JSON.stringify({ state: { text: "a" } }),
    });
    const upToDate = await h.request(`/api/overlay/events?token=${token}`, {
      headers: { "last-event-id": "1" },
    });
    const waiting = readEvents(upToDate, 1);
    await Bun.sleep(20);
    await h.panel("/api/dashboard/overlay/state", {
      method: "POST",
      body: JSON.stringify({ state: { text: "b" } }),
    });
    const [only] = await waiting;
    expect(only).toContain("id: 2");
  });

  test("rotating the overlay token ends streams opened with the old one; nothing published reaches them", async () => {
    const res = await h.request(`/api/overlay/events?token=${token}`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    const drain = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return "ended";
        seen += decoder.decode(value);
      }
    })();
    await Bun.sleep(20);
    await h.panel("/api/dashboard/security/rotate-overlay-token", { method: "POST" });
    await h.panel("/api/dashboard/overlay/state", {
      method: "POST",
      body: JSON.stringify({ state: { text: "after rotation" } }),
    });
    expect(await drain).toBe("ended");
    expect(seen).not.toContain("after rotation");
  });

  test("a token rotated between authentication and the stream's first line: it ends at once and holds no connection", async () => {
    const directory = h.ctx.accounts;
    const lookUp = directory.byCredential.bind(directory);
    let first = true;
    directory.byCredential = (kind, secret) => {
      if (!first) return lookUp(kind, secret);
      first = false;
      // The request authenticates with the token; then, before its stream writes anything, the token
      // is rotated and another request has already found the old one wanting.
      return (async () => {
        const account = await lookUp(kind, secret);
        await h.panel("/api/dashboard/security/rotate-overlay-token", { method: "POST" });
        expect(await lookUp(kind, secret)).toBeNull();
        return account;
      })();
    };
    const res = await h.request(`/api/overlay/events?token=${token}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    expect(h.ctx.overlays.connections(h.account.id)).toBe(0);
  });

  test("state or command options holding a NUL character → 400 naming it, on every database; nothing stored", async () => {
    const res = await h.panel("/api/dashboard/overlay/state", {
      method: "POST",
      body: JSON.stringify({ state: { title: "a\u0000b" } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("NUL");
    expect((await (await h.request(`/api/overlay/state?token=${token}`)).json()) as object).toMatchObject({
      data: { version: 0 },
    });
    const put = await h.panel("/api/dashboard/commands/magic8", {
      method: "PUT",
      body: JSON.stringify({ options: { answers: ["a\u0000b"] } }),
    });
    expect(put.status).toBe(400);
    expect(((await put.json()) as { error: { message: string } }).error.message).toContain("NUL");
  });

  test("at most 20 open streams per account", async () => {
    const open = await Promise.all(
      Array.from({ length: 20 }, () => h.request(`/api/overlay/events?token=${token}`)),
    );
    expect(open.every((r) => r.status === 200)).toBe(true);
    const extra = await h.request(`/api/overlay/events?token=${token}`);
    expect(extra.status).toBe(429);
    expect(((await extra.json()) as { error: { code: string } }).error.code).toBe("too_many_overlays");
    await Promise.all(open.map((r) => r.body!.cancel()));
  });

  test("bad input: no token, wrong token, oversized or non-object state", async () => {
    expect((await h.request("/api/overlay/state")).status).toBe(401);
    const wrong = await h.request("/api/overlay/state?token=nope");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("x-ratelimit-limit")).toBe("60");
    const big = await h.panel("/api/dashboard/overlay/state", {
      method: "POST",
      body: JSON.stringify({ state: { text: "x".repeat(17_000) } }),
    });
    expect(big.status).toBe(400);
    const notObject = await h.panel("/api/dashboard/overlay/state", {
      method: "POST",
      body: JSON.stringify({ state: [1, 2] }),
    });
    expect(notObject.status).toBe(400);
    const malformed = await h.panel("/api/dashboard/overlay/state", { method: "POST", body: "{not json" });
    expect(malformed.status).toBe(400);
  });

  test("the dashboard shows the OBS link; the overlay page needs a valid token", async () => {
    const info = (await (await h.panel("/api/dashboard/overlay")).json()) as {
      data: { overlay_url: string };
    };
    expect(info.data.overlay_url).toBe(`${h.origin}/overlay/${encodeURIComponent(token)}`);
    const page = await h.request(`/overlay/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect((await h.request("/overlay/not-a-token")).status).toBe(404);
  });
});
