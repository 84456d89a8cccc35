// The overlay's alert stream and its assets: a live alert arrives as an SSE `alert` event; a
// reconnecting overlay (Last-Event-ID or ?after=) gets only the newer alerts of the last minute, never
// older ones; uploads are served only to their account's overlay, with their type and nosniff.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Account } from "../../../db/accounts.ts";
import { addAlertAsset } from "../../../db/alert-assets.ts";
import { recordAlertEvent, writeAlertSettings } from "../../../db/alerts.ts";
import type { Alert, AlertFields, AlertType } from "../../../server/alerts/model.ts";
import { defaultAlertSettings } from "../../../server/alerts/model.ts";
import { presentAlert } from "../../../server/alerts/present.ts";
import { sampleFields } from "../../../server/alerts/samples.ts";
import { rotateOverlayToken } from "../../../server/core/accounts.ts";
import { ManualClock } from "../../../server/core/clock.ts";
import { MAX_OVERLAY_STREAMS } from "../../../server/overlay/routes-stream.ts";
import { createTestAccount, createTestContext, type TestContext } from "../../helpers/context.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const WAV = new Uint8Array([...new TextEncoder().encode("RIFF\x10\0\0\0WAVEfmt "), 0, 0, 0, 0]);

let t: TestContext;
let clock: ManualClock;
let account: Account;
let token: string;
beforeEach(async () => {
  clock = new ManualClock();
  t = await createTestContext({ clock });
  ({ account, overlayToken: token } = await createTestAccount(t.ctx));
});
afterEach(async () => {
  await t.cleanup();
});

/** Stores an alert as it happens now and shows it on the overlays, as delivery does. */
async function happen(type: AlertType, fields: Partial<AlertFields> = {}, publish = true): Promise<Alert> {
  const stored = await recordAlertEvent(t.ctx.db, {
    accountId: account.id,
    type,
    eventKey: crypto.randomUUID(),
    fields: { ...sampleFields(type), ...fields },
    test: false,
    at: clock.now(),
  });
  const alert = presentAlert(stored!, defaultAlertSettings(type));
  if (publish) t.ctx.alerts.publish(account.id, alert);
  return alert;
}

interface Heard {
  id: string;
  alert: Alert;
}

/** Reads `alert` events until `count` arrived, then listens `quietMs` longer to see nothing else comes. */
async function readAlerts(res: Response, count: number, quietMs = 150): Promise<Heard[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const heard: Heard[] = [];
  let buffer = "";
  let deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    const next = await Promise.race([reader.read(), Bun.sleep(deadline - Date.now()).then(() => null)]);
    if (!next || next.done) break;
    buffer += decoder.decode(next.value);
    const blocks = buffer.split("\n\n");
    buffer = blocks.pop() ?? "";
    for (const block of blocks.filter((b) => b.includes("event: alert"))) {
      const id = /^id: (.*)$/m.exec(block)?.[1] ?? "";
      heard.push({ id, alert: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null") as Alert });
    }
    if (heard.length >= count && deadline - Date.now() > quietMs) deadline = Date.now() + quietMs;
  }
  await reader.cancel();
  return heard;
}

const stream = (query = "", headers: Record<string, string> = {}) =>
  t.request(`/api/overlay/alerts?token=${token}${query}`, { headers });

describe("the alert stream", () => {
  test("a live alert arrives as an `alert` event: id = the alert's id, data = the alert", async () => {
    const res = await stream();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const heard = readAlerts(res, 1);
    await Bun.sleep(20);
    const alert = await happen("cheer", { user: "Ünïcødé 🐉 <b>x</b>", message: "Cheer100\u202e gg" });
    const [only, ...more] = await heard;
    expect(more).toEqual([]);
    expect(only?.id).toBe(String(alert.id));
    expect(only?.alert).toEqual(alert);
    expect(only?.alert.text).toBe("Ünïcødé 🐉 <b>x</b> cheered 500 bits!");
  });

  test("reconnecting with Last-Event-ID: only the newer alerts of the last minute, then the live ones", async () => {
    const old = await happen("follow", { user: "TooOld" }, false);
    clock.advance(61_000);
    const shown = await happen("follow", { user: "Shown" }, false);
    clock.advance(20_000);
    const missed = await happen("raid", { user: "Missed" }, false);
    const res = await stream("", { "last-event-id": String(shown.id) });
    const heard = readAlerts(res, 2);
    await Bun.sleep(30);
    const live = await happen("subscribe", { user: "Live" });
    expect((await heard).map((h) => h.alert.fields.user)).toEqual(["Missed", "Live"]);
    expect(old.id).toBeLessThan(shown.id);
    expect(missed.id).toBeLessThan(live.id);
  });

  test("a fresh overlay gets the last minute's alerts, never older; ?after= works as Last-Event-ID", async () => {
    await happen("follow", { user: "TooOld" }, false);
    clock.advance(60_001);
    const first = await happen("follow", { user: "First" }, false);
    await happen("gift", { user: "Second" }, false);
    expect((await readAlerts(await stream(), 2)).map((h) => h.alert.fields.user)).toEqual([
      "First",
      "Second",
    ]);
    expect((await readAlerts(await stream(`&after=${first.id}`), 1)).map((h) => h.alert.fields.user)).toEqual(
      ["Second"],
    );
    // A header or query that is no id counts as none: the last minute again, nothing older.
    const odd = await readAlerts(
      await stream("&after=-5%20or%201", { "last-event-id": "x".repeat(5000) }),
      2,
    );
    expect(odd.map((h) => h.alert.fields.user)).toEqual(["First", "Second"]);
  });

  test("the catch-up leaves out a type turned off since, as the live path did", async () => {
    await happen("follow", { user: "Follower" }, false);
    await happen("raid", { user: "Raider" }, false);
    await writeAlertSettings(t.ctx.db, account.id, "follow", { enabled: false }, clock.now());
    expect((await readAlerts(await stream(), 1)).map((h) => h.alert.fields.user)).toEqual(["Raider"]);
  });

  test("the catch-up brings a replay the live stream showed, even below its type's minimum", async () => {
    await writeAlertSettings(t.ctx.db, account.id, "cheer", { minAmount: 500 }, clock.now());
    await recordAlertEvent(t.ctx.db, {
      accountId: account.id,
      type: "cheer",
      eventKey: `replay:7:${crypto.randomUUID()}`,
      fields: { ...sampleFields("cheer"), user: "Replayed", amount: 100 },
      test: false,
      at: clock.now(),
    });
    await happen("cheer", { user: "TooSmall", amount: 100 }, false);
    expect((await readAlerts(await stream(), 1)).map((h) => h.alert.fields.user)).toEqual(["Replayed"]);
  });

  test("the same alert published twice (an echo from another instance) is sent once", async () => {
    const res = await stream();
    const heard = readAlerts(res, 1);
    await Bun.sleep(20);
    const alert = await happen("follow");
    t.ctx.alerts.publish(account.id, alert);
    expect((await heard).map((h) => h.alert.id)).toEqual([alert.id]);
  });

  test("alerts go only to their account's overlays", async () => {
    const other = await createTestAccount(t.ctx);
    const res = await t.request(`/api/overlay/alerts?token=${other.overlayToken}`);
    const heard = readAlerts(res, 1, 0);
    await Bun.sleep(20);
    await happen("follow");
    expect(await heard).toEqual([]);
  });

  test(`at most ${MAX_OVERLAY_STREAMS} open alert streams per account; a bad token is refused`, async () => {
    const open: Response[] = [];
    for (let i = 0; i < MAX_OVERLAY_STREAMS; i++) open.push(await stream());
    expect(open.every((r) => r.status === 200)).toBe(true);
    const refused = await stream();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("too_many_overlays");
    for (const r of open) await r.body?.cancel();
    expect((await t.request("/api/overlay/alerts")).status).toBe(401);
    expect((await t.request("/api/overlay/alerts?token=nope")).status).toBe(401);
  });
});

describe("the alert stream and the overlay token", () => {
  test("rotating the token ends streams opened with the old one; no alert reaches them after", async () => {
    const res = await stream();
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
    await rotateOverlayToken(t.ctx, account, "panel");
    await happen("follow", { user: "AfterRotation" });
    expect(await drain).toBe("ended");
    expect(seen).not.toContain("AfterRotation");
  });
});

describe("alert assets", () => {
  test("served to the owner's overlay with the stored type, nosniff and a private cache", async () => {
    const image = await addAlertAsset(t.ctx.db, account.id, PNG, "image", clock.now());
    const sound = await addAlertAsset(t.ctx.db, account.id, WAV, "sound", clock.now());
    const res = await t.request(`/api/overlay/assets/${image.id}?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    const wav = await t.request(`/api/overlay/assets/${sound.id}`, { headers: { "x-overlay-token": token } });
    expect(wav.headers.get("content-type")).toBe("audio/wav");
    expect(new Uint8Array(await wav.arrayBuffer())).toEqual(WAV);
  });

  test("another account's asset, an unknown id or no id at all → 404; no token → 401", async () => {
    const other = await createTestAccount(t.ctx);
    const theirs = await addAlertAsset(t.ctx.db, other.account.id, PNG, "image", clock.now());
    for (const id of [String(theirs.id), "999999", "0", "-1", "1e3", "abc", "9".repeat(40), "%F0%9F%90%89"]) {
      const res = await t.request(`/api/overlay/assets/${id}?token=${token}`);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
    }
    expect((await t.request(`/api/overlay/assets/${theirs.id}`)).status).toBe(401);
    const own = await t.request(`/api/overlay/assets/${theirs.id}?token=${other.overlayToken}`);
    expect(own.status).toBe(200);
  });
});
