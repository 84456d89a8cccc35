/**
 * SHA-256 in hex: how sessions, API keys and overlay tokens are looked up without storing them. The
 * caller hashes a presented secret once and hands the hash to the query (db/credentials.ts,
 * db/sessions.ts).
 */
export function sha256Hex(value: string): string {
  // Bun's one-shot SHA-256 (~0.1 µs against ~0.35 µs through node:crypto): every keyed request hashes.
  return Bun.SHA256.hash(value, "hex");
}
