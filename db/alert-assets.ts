import { and, asc, count, eq, sql } from "drizzle-orm";
import { ALERT_LIMITS, AlertDataError, invalidAlertInput } from "./alert-rules.ts";
import type { DataStore, Tables } from "./data-store.ts";
import { ALERT_ASSET_KINDS, type AlertAssetKind } from "./schema-enums.ts";

/**
 * Alert images and sounds uploaded by a streamer (issue 25), kept as bytes in the database so every
 * instance serves them. The type is read from the bytes (magic numbers), never from a file name or a
 * Content-Type header: PNG, JPEG, GIF, WebP images; MP3 (ID3 tag or MPEG frame sync), Ogg, WAV sounds.
 */

export interface SniffedType {
  kind: AlertAssetKind;
  contentType: string;
}

/** An asset as listed (without its bytes). */
export interface AlertAssetInfo {
  id: number;
  kind: AlertAssetKind;
  contentType: string;
  size: number;
  createdAt: number;
}

/** An asset with its bytes, to serve. */
export interface AlertAsset extends AlertAssetInfo {
  bytes: Uint8Array;
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87 = ascii("GIF87a");
const GIF89 = ascii("GIF89a");
const RIFF = ascii("RIFF");
const WEBP = ascii("WEBP");
const WAVE = ascii("WAVE");
const OGG = ascii("OggS");
const ID3 = ascii("ID3");

/**
 * An MPEG audio frame header: 11 sync bits, then a version, layer, bitrate and sample rate that are
 * not the reserved or "bad" values (so random bytes starting 0xFF rarely pass).
 */
function isMpegFrame(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const [b0 = 0, b1 = 0, b2 = 0] = bytes;
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return false;
  const version = (b1 >> 3) & 0b11;
  const layer = (b1 >> 1) & 0b11;
  const bitrate = b2 >> 4;
  const sampleRate = (b2 >> 2) & 0b11;
  return version !== 0b01 && layer !== 0b00 && bitrate !== 0b1111 && sampleRate !== 0b11;
}

/** What the bytes are, by their first bytes, or null when they are none of the accepted types. */
export function sniffAssetType(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, PNG)) return { kind: "image", contentType: "image/png" };
  if (startsWith(bytes, JPEG)) return { kind: "image", contentType: "image/jpeg" };
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89))
    return { kind: "image", contentType: "image/gif" };
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8))
    return { kind: "image", contentType: "image/webp" };
  if (startsWith(bytes, RIFF) && startsWith(bytes, WAVE, 8))
    return { kind: "sound", contentType: "audio/wav" };
  if (startsWith(bytes, OGG)) return { kind: "sound", contentType: "audio/ogg" };
  if (startsWith(bytes, ID3) || isMpegFrame(bytes)) return { kind: "sound", contentType: "audio/mpeg" };
  return null;
}

const ACCEPTED: Record<AlertAssetKind, string> = {
  image: "a PNG, JPEG, GIF or WebP image",
  sound: "an MP3, Ogg or WAV sound",
};

/** The bytes' type, refused (naming `bytes`) when empty, too large, unknown or not of the kind asked. */
export function checkAssetBytes(bytes: Uint8Array, kindAsked: AlertAssetKind): SniffedType {
  if (!(ALERT_ASSET_KINDS as readonly string[]).includes(kindAsked)) {
    throw invalidAlertInput("kind", `An upload's kind is one of: ${ALERT_ASSET_KINDS.join(", ")}.`);
  }
  if (!(bytes instanceof Uint8Array) || bytes.length === 0)
    throw invalidAlertInput("bytes", "The file is empty.");
  if (bytes.length > ALERT_LIMITS.assetBytes) {
    throw new AlertDataError("too_large", "bytes", "A file is 1 MiB at most.");
  }
  const sniffed = sniffAssetType(bytes);
  if (sniffed?.kind !== kindAsked) {
    throw invalidAlertInput("bytes", `The file is not ${ACCEPTED[kindAsked]}.`);
  }
  return sniffed;
}

const infoColumns = (t: Tables) => ({
  id: t.alertAssets.id,
  kind: t.alertAssets.kind,
  contentType: t.alertAssets.contentType,
  size: t.alertAssets.size,
  createdAt: t.alertAssets.createdAt,
});

/** The first key of the account's upload lock on PostgreSQL ("alrt"); the second is the account id. */
const UPLOAD_LOCK_SPACE = 0x616c7274;

/**
 * Holds the account's uploads until the transaction ends, so counting and inserting are one step.
 * PostgreSQL's READ COMMITTED lets parallel transactions each count 19 and each insert: a
 * transaction-scoped advisory lock (two int4 keys, apart from the migrator's one bigint key) queues
 * them. SQLite needs none: one writer at a time holds the whole file.
 */
async function lockAccountUploads(tx: DataStore, accountId: number): Promise<void> {
  if (tx.dialect !== "postgres") return;
  await tx.first((db, t) =>
    db
      .select({ locked: sql<string>`pg_advisory_xact_lock(${UPLOAD_LOCK_SPACE}, ${accountId})` })
      .from(t.accounts)
      .where(eq(t.accounts.id, accountId))
      .limit(1),
  );
}

/**
 * Stores an upload after checking its bytes (checkAssetBytes) and the account's limit of 20, exactly
 * (lockAccountUploads); refusals are AlertDataErrors.
 */
export async function addAlertAsset(
  s: DataStore,
  accountId: number,
  bytes: Uint8Array,
  kindAsked: AlertAssetKind,
  now: number,
): Promise<AlertAssetInfo> {
  const { kind, contentType } = checkAssetBytes(bytes, kindAsked);
  return await s.transaction(async (tx) => {
    await lockAccountUploads(tx, accountId);
    const existing = await tx.first((db, t) =>
      db.select({ n: count() }).from(t.alertAssets).where(eq(t.alertAssets.accountId, accountId)),
    );
    if ((existing?.n ?? 0) >= ALERT_LIMITS.assetsPerAccount) {
      throw new AlertDataError(
        "limit_reached",
        "bytes",
        `A channel has at most ${ALERT_LIMITS.assetsPerAccount} uploaded files; delete one first.`,
      );
    }
    const row = {
      accountId,
      kind,
      contentType,
      bytes: Buffer.from(bytes),
      size: bytes.length,
      createdAt: now,
    };
    const added = await tx.first((db, t) => db.insert(t.alertAssets).values(row).returning(infoColumns(t)));
    if (!added) throw new Error("the alert asset insert returned no row");
    return added;
  });
}

/** The account's uploads, oldest first, without their bytes. */
export function listAlertAssets(s: DataStore, accountId: number): Promise<AlertAssetInfo[]> {
  return s.all((db, t) =>
    db
      .select(infoColumns(t))
      .from(t.alertAssets)
      .where(eq(t.alertAssets.accountId, accountId))
      .orderBy(asc(t.alertAssets.id)),
  );
}

const isId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;

/** One of the account's uploads with its bytes, or null (another account's is null too). */
export async function getAlertAsset(s: DataStore, accountId: number, id: number): Promise<AlertAsset | null> {
  if (!isId(id)) return null;
  const row = await s.first((db, t) =>
    db
      .select({ ...infoColumns(t), bytes: t.alertAssets.bytes })
      .from(t.alertAssets)
      .where(and(eq(t.alertAssets.accountId, accountId), eq(t.alertAssets.id, id)))
      .limit(1),
  );
  return row ?? null;
}

/** Deletes an upload; the settings that used it use none. Whether there was one to delete. */
export async function deleteAlertAsset(s: DataStore, accountId: number, id: number): Promise<boolean> {
  if (!isId(id)) return false;
  return await s.transaction(async (tx) => {
    await tx.run((db, t) =>
      db
        .update(t.alertSettings)
        .set({ imageId: null })
        .where(and(eq(t.alertSettings.accountId, accountId), eq(t.alertSettings.imageId, id))),
    );
    await tx.run((db, t) =>
      db
        .update(t.alertSettings)
        .set({ soundId: null })
        .where(and(eq(t.alertSettings.accountId, accountId), eq(t.alertSettings.soundId, id))),
    );
    const gone = await tx.first((db, t) =>
      db
        .delete(t.alertAssets)
        .where(and(eq(t.alertAssets.accountId, accountId), eq(t.alertAssets.id, id)))
        .returning({ id: t.alertAssets.id }),
    );
    return gone !== undefined;
  });
}
