// A Bun macro: the Swagger UI bundle is read from node_modules at build time and embedded, so /docs
// works offline and loads nothing from a CDN (DESIGN.md: no CDN at run time).
import { readFileSync } from "node:fs";
import { join } from "node:path";

export function swaggerUiAssets(): { js: string; css: string } {
  const dir = join(import.meta.dir, "..", "..", "node_modules", "swagger-ui-dist");
  return {
    js: readFileSync(join(dir, "swagger-ui-bundle.js"), "utf8"),
    css: readFileSync(join(dir, "swagger-ui.css"), "utf8"),
  };
}
