import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  addAlertAsset,
  deleteAlertAsset,
  getAlertAsset,
  listAlertAssets,
  sniffAssetType,
} from "../../db/alert-assets.ts";
import { ALERT_LIMITS, type AlertDataErrorCode } from "../../db/alert-rules.ts";
import { readAlertSettings, writeAlertSettings } from "../../db/alerts.ts";
import type { AlertAssetKind } from "../../db/schema-enums.ts";
import { NOT_ACCEPTED, SAMPLES } from "./asset-samples.ts";
import { alertRefusal } from "./refusal.ts";
import { engine, engineMissing, openStoreUnderTest, type StoreUnderTest } from "./store-under-test.ts";

const AT = Date.UTC(2026, 10, 26, 12, 0, 0, 0);

describe("an upload's type comes from its bytes", () => {
  test("each accepted type is recognised by its first bytes", () => {
    const seen = Object.fromEntries(
      Object.entries(SAMPLES).map(([name, bytes]) => [name, sniffAssetType(bytes)]),
    );
    expect(seen).toEqual({
      png: { kind: "image", contentType: "image/png" },
      jpeg: { kind: "image", contentType: "image/jpeg" },
      gif87: { kind: "image", contentType: "image/gif" },
      gif89: { kind: "image", contentType: "image/gif" },
      webp: { kind: "image", contentType: "image/webp" },
      mp3Id3: { kind: "sound", contentType: "audio/mpeg" },
      mp3Frame: { kind: "sound", contentType: "audio/mpeg" },
      ogg: { kind: "sound", contentType: "audio/ogg" },
      wav: { kind: "sound", contentType: "audio/wav" },
    });
  });

  test("SVG, HTML, other RIFF files, false frame headers and scraps are none of them", () => {
    for (const bytes of Object.values(NOT_ACCEPTED)) expect(sniffAssetType(bytes)).toBeNull();
    expect(sniffAssetType(new Uint8Array())).toBeNull();
  });
});

describe.skipIf(engineMissing)(`alert images and sounds in the store (${engine})`, () => {
  let db: StoreUnderTest;
  beforeAll(async () => {
    db = await openStoreUnderTest();
  });
  afterAll(() => db?.close());

  test("an upload comes back byte for byte with its type and size; the list leaves the bytes out", async () => {
    const account = await db.account();
    const big = new Uint8Array(ALERT_LIMITS.assetBytes);
    big.set(SAMPLES.png);
    for (let i = SAMPLES.png.length; i < big.length; i++) big[i] = (i * 7) & 0xff;
    const image = await addAlertAsset(db.store, account, big, "image", AT);
    expect(image).toEqual({
      id: expect.any(Number),
      kind: "image",
      contentType: "image/png",
      size: ALERT_LIMITS.assetBytes,
      createdAt: AT,
    });
    const sound = await addAlertAsset(db.store, account, SAMPLES.mp3Frame, "sound", AT + 1);
    const stored = await getAlertAsset(db.store, account, image.id);
    expect(stored?.contentType).toBe("image/png");
    expect(Buffer.from(stored!.bytes).equals(Buffer.from(big))).toBe(true);
    const list = await listAlertAssets(db.store, account);
    expect(list).toEqual([image, { ...sound, contentType: "audio/mpeg" }]);
    expect(list.every((a) => !("bytes" in a))).toBe(true);
  });

  test("another account's upload, or an id that is none, is not found", async () => {
    const account = await db.account();
    const other = await db.account();
    const theirs = await addAlertAsset(db.store, other, SAMPLES.wav, "sound", AT);
    expect(await getAlertAsset(db.store, account, theirs.id)).toBeNull();
    expect(await deleteAlertAsset(db.store, account, theirs.id)).toBe(false);
    expect(await getAlertAsset(db.store, other, theirs.id)).not.toBeNull();
    for (const id of [0, -1, 1.5, Number.NaN, 2 ** 40]) {
      expect(await getAlertAsset(db.store, account, id)).toBeNull();
      expect(await deleteAlertAsset(db.store, account, id)).toBe(false);
    }
  });

  test("wrong kind, unknown type, empty and too large are refused, and nothing is stored", async () => {
    const account = await db.account();
    const cases: [Uint8Array, AlertAssetKind, AlertDataErrorCode, string, RegExp][] = [
      [SAMPLES.ogg, "image", "invalid_input", "bytes", /not a PNG, JPEG, GIF or WebP image/],
      [SAMPLES.png, "sound", "invalid_input", "bytes", /not an MP3, Ogg or WAV sound/],
      [NOT_ACCEPTED.svg, "image", "invalid_input", "bytes", /not a PNG/],
      [NOT_ACCEPTED.avi, "sound", "invalid_input", "bytes", /not an MP3/],
      [NOT_ACCEPTED.fakeFrame, "sound", "invalid_input", "bytes", /not an MP3/],
      [new Uint8Array(), "image", "invalid_input", "bytes", /empty/],
      [new Uint8Array(ALERT_LIMITS.assetBytes + 1).fill(0x89), "image", "too_large", "bytes", /1 MiB/],
      [SAMPLES.png, "video" as AlertAssetKind, "invalid_input", "kind", /image, sound/],
    ];
    for (const [bytes, kind, code, field, message] of cases) {
      const error = await alertRefusal(() => addAlertAsset(db.store, account, bytes, kind, AT));
      expect({ code: error.code, field: error.field }).toEqual({ code, field });
      expect(error.message).toMatch(message);
    }
    expect(await listAlertAssets(db.store, account)).toEqual([]);
  });

  test("an account holds 20 uploads at most; deleting one makes room", async () => {
    const account = await db.account();
    const added = [];
    for (let i = 0; i < ALERT_LIMITS.assetsPerAccount; i++) {
      added.push(
        await addAlertAsset(
          db.store,
          account,
          i % 2 ? SAMPLES.jpeg : SAMPLES.mp3Id3,
          i % 2 ? "image" : "sound",
          AT,
        ),
      );
    }
    const full = await alertRefusal(() => addAlertAsset(db.store, account, SAMPLES.webp, "image", AT));
    expect({ code: full.code, field: full.field }).toEqual({ code: "limit_reached", field: "bytes" });
    expect(full.message).toMatch(/at most 20/);
    expect(await deleteAlertAsset(db.store, account, added[0]!.id)).toBe(true);
    expect((await addAlertAsset(db.store, account, SAMPLES.webp, "image", AT)).contentType).toBe(
      "image/webp",
    );
    // Another account is not held by this one's count.
    expect(await addAlertAsset(db.store, await db.account(), SAMPLES.png, "image", AT)).toBeDefined();
  });

  test("30 uploads at once stop at exactly 20, the rest refused as over the limit", async () => {
    const account = await db.account();
    const settled = await Promise.allSettled(
      Array.from({ length: 30 }, () => addAlertAsset(db.store, account, SAMPLES.gif89, "image", AT)),
    );
    const refused = settled.flatMap((r) => (r.status === "rejected" ? [r.reason as { code?: string }] : []));
    expect(settled.filter((r) => r.status === "fulfilled")).toHaveLength(ALERT_LIMITS.assetsPerAccount);
    expect(refused.map((e) => e.code)).toEqual(Array(10).fill("limit_reached"));
    expect(await listAlertAssets(db.store, account)).toHaveLength(ALERT_LIMITS.assetsPerAccount);
  });

  test("deleting an upload leaves the settings that used it with none, and the rest as they were", async () => {
    const account = await db.account();
    const image = await addAlertAsset(db.store, account, SAMPLES.gif87, "image", AT);
    const sound = await addAlertAsset(db.store, account, SAMPLES.ogg, "sound", AT);
    await writeAlertSettings(
      db.store,
      account,
      "raid",
      { imageId: image.id, soundId: sound.id, volume: 30 },
      AT,
    );
    await writeAlertSettings(db.store, account, "follow", { imageId: image.id }, AT);
    expect(await deleteAlertAsset(db.store, account, image.id)).toBe(true);
    expect(await deleteAlertAsset(db.store, account, image.id)).toBe(false);
    const settings = await readAlertSettings(db.store, account);
    expect(settings.raid).toMatchObject({ imageId: null, soundId: sound.id, volume: 30 });
    expect(settings.follow.imageId).toBeNull();
    expect(await listAlertAssets(db.store, account)).toEqual([sound]);
  });
});
