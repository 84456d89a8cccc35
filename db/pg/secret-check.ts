import { hkdfSync } from "node:crypto";
import type { SQL } from "bun";

/** This instance's secret.key is not the one the shared database was created with. */
export class SecretKeyMismatchError extends Error {
  constructor() {
    super(
      "this instance's secret.key differs from the one the database was created with; copy secret.key from an instance already using this database into this data folder",
    );
  }
}

/**
 * A fingerprint of the secret key, safe to store: HKDF-SHA-256 with its own label, so it reveals
 * nothing of the key nor of the keys derived from it for sealing (server/core/secrets.ts).
 */
export function secretKeyFingerprint(master: Buffer): string {
  return Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), "cuebot:instance-check", 32)).toString(
    "hex",
  );
}

/**
 * Instances sharing one PostgreSQL database must share secret.key (CONTRACT §2), or each could not
 * read what the others sealed. The first instance records its key's fingerprint; every later one
 * must match it. Atomic, so two instances with different keys starting together cannot both win.
 */
export async function checkSecretKey(sql: SQL, master: Buffer): Promise<"recorded" | "matches"> {
  const fingerprint = secretKeyFingerprint(master);
  const inserted = await sql.unsafe(
    `INSERT INTO cuebot_meta (name, value) VALUES ('secret_key_fingerprint', $1)
     ON CONFLICT (name) DO NOTHING RETURNING value`,
    [fingerprint],
  );
  if (inserted.length > 0) return "recorded";
  const [row] = await sql.unsafe(`SELECT value FROM cuebot_meta WHERE name = 'secret_key_fingerprint'`);
  if (row?.value !== fingerprint) throw new SecretKeyMismatchError();
  return "matches";
}
