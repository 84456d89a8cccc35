// A Bun macro (like db/migrations.macro.ts): the pages and browser scripts are read at build time and
// inlined as strings, so the binary serves them with nothing on disk and no CDN.
import { readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
};

export interface EmbeddedAsset {
  body: string;
  type: string;
}

/** Every file of `server/web/<folder>`, by file name. */
export function embedFolder(folder: string): Record<string, EmbeddedAsset> {
  const dir = join(import.meta.dir, folder);
  const out: Record<string, EmbeddedAsset> = {};
  for (const name of readdirSync(dir).sort()) {
    const type = TYPES[extname(name)];
    if (type) out[name] = { body: readFileSync(join(dir, name), "utf8"), type };
  }
  return out;
}
