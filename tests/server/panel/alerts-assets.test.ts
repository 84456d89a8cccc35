import { afterEach, describe, expect, test } from "bun:test";
import { addAlertAsset, getAlertAsset, listAlertAssets } from "../../../db/alert-assets.ts";
import { readAlertSettings } from "../../../db/alerts.ts";
import { listen } from "../../../server/listen.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { createTestAccount } from "../../helpers/context.ts";
import { HTML_PAGE, PNG_1X1, wavBytes } from "./alert-files.ts";
import { call, expectDocumented, expectRefusal, type Reply } from "./chat-bot-panel.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const ASSETS = "/api/dashboard/alerts/assets";

interface AssetData {
  id: number;
  kind: string;
  contentType: string;
  size: number;
  createdAt: string;
}

/** Uploads `bytes` as the dashboard does: the file itself as the body, with the header the browser guessed. */
async function upload(kind: string, bytes: Uint8Array, contentType = "application/octet-stream") {
  const res = await h.panel(`${ASSETS}?kind=${kind}`, {
    method: "POST",
    body: new Uint8Array(bytes),
    headers: { "content-type": contentType, "content-length": String(bytes.length) },
  });
  return {
    status: res.status,
    body: (await res.json()) as Reply<AssetData>["body"],
    field: res.headers.get("x-cuebot-field"),
  } satisfies Reply<AssetData>;
}

const stored = () => listAlertAssets(h.ctx.db, h.account.id);

describe("alert images and sounds", () => {
  test("a real PNG and a WAV are accepted whatever header they came with, typed by their bytes, listed and deleted", async () => {
    h = await startBotHarness();
    const png = await upload("image", PNG_1X1, "text/html");
    expect(png.status).toBe(200);
    expect(png.body.data).toMatchObject({ kind: "image", contentType: "image/png", size: PNG_1X1.length });
    const wav = await upload("sound", wavBytes(4000), "image/png");
    expect(wav.status).toBe(200);
    expect(wav.body.data).toMatchObject({ kind: "sound", contentType: "audio/wav", size: 4044 });
    expect((await getAlertAsset(h.ctx.db, h.account.id, png.body.data.id))?.bytes).toEqual(PNG_1X1);

    const list = await call<{ items: AssetData[]; limit: number }>(h, "GET", ASSETS);
    expect(list.body.data.items.map((a) => [a.kind, a.contentType])).toEqual([
      ["image", "image/png"],
      ["sound", "audio/wav"],
    ]);
    expect(list.body.data.limit).toBe(20);

    // A type that used the image shows none once it is deleted.
    await call(h, "PUT", "/api/dashboard/alerts/types/follow", { imageId: png.body.data.id });
    const deleted = await call(h, "DELETE", `${ASSETS}/${png.body.data.id}`);
    expect(deleted.status).toBe(200);
    expect((await readAlertSettings(h.ctx.db, h.account.id)).follow.imageId).toBeNull();
    expectRefusal(await call(h, "DELETE", `${ASSETS}/${png.body.data.id}`), 404, "not_found");
    expectRefusal(await call(h, "DELETE", `${ASSETS}/abc`), 400, "bad_request", "id");
    expect((await stored()).map((a) => a.kind)).toEqual(["sound"]);
  });

  test("an upload is read back with its stored type and safe headers; another account's id, an odd id or no session is refused", async () => {
    h = await startBotHarness();
    const png = await upload("image", PNG_1X1, "text/html");
    const res = await h.panel(`${ASSETS}/${png.body.data.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(res.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG_1X1);

    const other = await createTestAccount(h.ctx);
    const theirs = await addAlertAsset(h.ctx.db, other.account.id, PNG_1X1, "image", h.ctx.clock.now());
    expectRefusal(await call(h, "GET", `${ASSETS}/${theirs.id}`), 404, "not_found");
    expectRefusal(await call(h, "GET", `${ASSETS}/999999`), 404, "not_found");
    for (const odd of ["abc", "-1", "1e3", "9".repeat(40), "%F0%9F%90%89"])
      expectRefusal(await call(h, "GET", `${ASSETS}/${odd}`), 400, "bad_request", "id");
    const anonymous = await h.app.handle(new Request(`http://localhost${ASSETS}/${png.body.data.id}`));
    expect(anonymous.status).toBe(401);
    await expectDocumented(h, { [`${ASSETS}/{id}`]: ["get", "delete"] });
  });

  test("a wrong or unknown type is refused naming field file, and nothing is stored", async () => {
    h = await startBotHarness();
    const cases: [string, Uint8Array, string][] = [
      ["sound", PNG_1X1, "MP3, Ogg or WAV"],
      ["image", wavBytes(10), "PNG, JPEG, GIF or WebP"],
      ["image", HTML_PAGE, "PNG, JPEG, GIF or WebP"],
      ["sound", HTML_PAGE, "MP3, Ogg or WAV"],
      ["image", new Uint8Array(0), "empty"],
      ["image", PNG_1X1.slice(0, 4), "PNG, JPEG, GIF or WebP"],
    ];
    for (const [kind, bytes, words] of cases) {
      const reply = await upload(kind, bytes, "image/png");
      expectRefusal(reply, 400, "bad_request", "file");
      expect(reply.body.error.message).toContain(words);
    }
    expectRefusal(await upload("video", PNG_1X1), 400, "bad_request", "kind");
    expectRefusal(await upload("", PNG_1X1), 400, "bad_request", "kind");
    expect(await stored()).toEqual([]);
  });

  test("1 MiB is accepted, 1 MiB + 1 byte is a 413 with the contract's body (announced or not), and nothing is stored", async () => {
    h = await startBotHarness();
    const limit = 1024 * 1024;
    const exact = new Uint8Array(limit);
    exact.set(PNG_1X1);
    expect((await upload("image", exact)).status).toBe(200);
    const over = new Uint8Array(limit + 1);
    over.set(PNG_1X1);
    const announced = await upload("image", over);
    expect(announced.status).toBe(413);
    expect(announced.body as unknown).toEqual({
      status: 413,
      error: { code: "payload_too_large", message: "Request bodies may be at most 1 MiB." },
    });
    // Sent without a length (as under app.handle, a stream): the store's own cap answers 413 too.
    const res = await h.panel(`${ASSETS}?kind=image`, { method: "POST", body: over });
    expect(res.status).toBe(413);
    expect(((await res.json()) as Reply["body"]).error.code).toBe("payload_too_large");
    expect((await stored()).map((a) => a.size)).toEqual([limit]);
  });

  test("on a listening server: a 600 KiB image goes through, 1 MiB + 1 is a 413 before the route runs", async () => {
    h = await startBotHarness({
      configure: (c) => {
        c.port = 0;
      },
    });
    const server = listen(h.ctx, h.app);
    try {
      const send = (bytes: Uint8Array) =>
        fetch(`${server.url}${ASSETS}?kind=image`, {
          method: "POST",
          headers: { cookie: h.cookie, origin: h.origin, "content-type": "image/png" },
          body: new Uint8Array(bytes),
        });
      const big = new Uint8Array(600 * 1024);
      big.set(PNG_1X1);
      const ok = await send(big);
      expect(ok.status).toBe(200);
      const over = new Uint8Array(1024 * 1024 + 1);
      over.set(PNG_1X1);
      const refused = await send(over);
      expect(refused.status).toBe(413);
      expect(((await refused.json()) as Reply["body"]).error.code).toBe("payload_too_large");
      expect((await stored()).map((a) => a.size)).toEqual([600 * 1024]);
    } finally {
      await server.stop(1000);
    }
  });

  test("another route keeps its 64 KiB cap", async () => {
    h = await startBotHarness();
    const body = JSON.stringify({ template: "x".repeat(70 * 1024) });
    const res = await h.panel("/api/dashboard/alerts/types/cheer", {
      method: "PUT",
      body,
      headers: { "content-length": String(body.length) },
    });
    expect(res.status).toBe(413);
  });

  test("a channel keeps at most 20 files: the 21st is refused with 409 and not stored", async () => {
    h = await startBotHarness();
    for (let i = 0; i < 20; i++) expect((await upload("image", PNG_1X1)).status).toBe(200);
    const full = await upload("sound", wavBytes(10));
    expectRefusal(full, 409, "limit_reached");
    expect(await stored()).toHaveLength(20);
  });
});
