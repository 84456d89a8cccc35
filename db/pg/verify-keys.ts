import { sha256Hex } from "../lookup-hash.ts";
import type { Sealer } from "../sealing.ts";
import type { PgHandle } from "./connection.ts";
import { apiKeys, overlayTokens } from "./schema.ts";

/** How many credentials in the database open with this secret key and still match their lookup hash. */
export interface KeyCheck {
  apiKeys: number;
  overlayTokens: number;
}

export class KeyCheckError extends Error {}

/**
 * After a copy, every API key and overlay token must still work: its sealed value opens with this
 * secret key (AAD = its account) and hashes to the stored lookup hash, which is what a request checks.
 */
export async function verifyCredentials(target: PgHandle, box: Sealer): Promise<KeyCheck> {
  const check = async (table: typeof apiKeys | typeof overlayTokens, kind: "api-key" | "overlay-token") => {
    const rows = await target.db.select().from(table);
    for (const row of rows) {
      let value: string;
      try {
        value = box.open(kind, row.encrypted, row.accountId);
      } catch {
        throw new KeyCheckError(
          `the ${kind} of account ${row.accountId} does not open with this secret.key: use the secret.key of the data folder the database came from`,
        );
      }
      if (sha256Hex(value) !== row.lookupHash) {
        throw new KeyCheckError(`the ${kind} of account ${row.accountId} no longer matches its lookup hash`);
      }
    }
    return rows.length;
  };
  return {
    apiKeys: await check(apiKeys, "api-key"),
    overlayTokens: await check(overlayTokens, "overlay-token"),
  };
}
