import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { chmodSync, existsSync, linkSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Sealer, SealPurpose } from "../../db/sealing.ts";

/** The secret key file is missing its content or damaged: nothing sealed with it can be opened. */
export class SecretKeyError extends Error {}

export const SECRET_KEY_FILE = "secret.key";

/**
 * AES-256-GCM with a random 96-bit IV; the AAD binds a sealed value to its owner (the account id),
 * so a ciphertext copied onto another row does not open.
 */
export class SecretBox implements Sealer {
  readonly #keys = new Map<SealPurpose, Buffer>();

  constructor(private readonly master: Buffer) {
    if (master.length !== 32) throw new Error("the secret key must be 32 bytes");
  }

  #key(purpose: SealPurpose): Buffer {
    let key = this.#keys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync("sha256", this.master, Buffer.alloc(0), `cuebot:${purpose}`, 32));
      this.#keys.set(purpose, key);
    }
    return key;
  }

  seal(purpose: SealPurpose, plaintext: string, owner: string | number): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key(purpose), iv);
    cipher.setAAD(Buffer.from(String(owner)));
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
  }

  open(purpose: SealPurpose, sealed: string, owner: string | number): string {
    if (!sealed.startsWith("v1.")) throw new Error("unknown sealed-value format");
    const raw = Buffer.from(sealed.slice(3), "base64url");
    const decipher = createDecipheriv("aes-256-gcm", this.#key(purpose), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(String(owner)));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  }
}

/** Reads `<dataDir>/secret.key`, creating it (mode 0600) when missing. Never replaces an existing key. */
export function loadOrCreateSecretKey(
  dataDir: string,
  /** How the finished file is put in place (tests stand in a file system without hard links). */
  link: (from: string, to: string) => void = linkSync,
): { key: Buffer; created: boolean } {
  const path = join(dataDir, SECRET_KEY_FILE);
  if (existsSync(path)) return { key: readWhenWhole(path), created: false };
  const content = `${randomBytes(32).toString("hex")}\n`;
  // Written whole under a temporary name, then linked into place: linking fails if another process
  // (a second instance starting at the same moment) got there first, and then its key is the key.
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600, flag: "wx" });
  try {
    chmodSync(temporary, 0o600);
    link(temporary, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code === "EEXIST") return { key: readWhenWhole(path), created: false };
    if (!NO_HARD_LINKS.has(code)) throw error;
    // A file system without hard links (vfat, some network mounts): create it in place instead.
    try {
      writeFileSync(path, content, { mode: 0o600, flag: "wx" });
    } catch (inPlace) {
      if ((inPlace as NodeJS.ErrnoException).code !== "EEXIST") throw inPlace;
      return { key: readWhenWhole(path), created: false };
    }
  } finally {
    rmSync(temporary, { force: true });
  }
  return { key: readSecretKey(path), created: true };
}

/** Errors of a file system that cannot make hard links. */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/**
 * A key another process is writing this very moment may still be empty (where it could not be linked
 * into place whole): read again for a moment before calling it broken.
 */
function readWhenWhole(path: string): Buffer {
  const deadline = performance.now() + 1000;
  for (;;) {
    try {
      return readSecretKey(path);
    } catch (error) {
      if (!(error instanceof SecretKeyError) || performance.now() > deadline) throw error;
      Bun.sleepSync(10);
    }
  }
}

export function readSecretKey(path: string): Buffer {
  const text = readFileSync(path, "utf8").trim();
  if (!/^[0-9a-f]{64}$/.test(text)) {
    throw new SecretKeyError(
      `${path} is not a cuebot secret key (expected 64 hex characters); restore it from your backup — API keys and tokens cannot be read without it`,
    );
  }
  return Buffer.from(text, "hex");
}

/** A random opaque token (URL-safe) with `bytes` of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}
