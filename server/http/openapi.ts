import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import pkg from "../../package.json" with { type: "json" };
import { swaggerUiAssets } from "./docs-assets.macro.ts" with { type: "macro" };

const ASSETS = swaggerUiAssets();
const JS_PATH = "/docs/assets/swagger-ui-bundle.js";
const CSS_PATH = "/docs/assets/swagger-ui.css";
const INIT_PATH = "/docs/assets/init.js";

/** Our own /docs page: Swagger UI from our origin, started by a script file, so the CSP needs no inline code. */
const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>cuebot API</title><link rel="stylesheet" href="${CSS_PATH}"></head>
<body><div id="swagger-ui"></div><script src="${JS_PATH}"></script><script src="${INIT_PATH}"></script></body>
</html>`;
const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: "/docs/json", dom_id: "#swagger-ui", deepLinking: true });\n`;
const DOCS_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'";

/** `/docs` (Swagger UI, served locally) and `/docs/json` (the OpenAPI document, every route). */
export function apiDocs() {
  return new Elysia({ name: "cuebot.docs" })
    .get(
      "/docs",
      () =>
        new Response(DOCS_PAGE, {
          headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": DOCS_CSP },
        }),
      { detail: { hide: true } },
    )
    .get(INIT_PATH, () => asset(DOCS_INIT, "text/javascript; charset=utf-8"), { detail: { hide: true } })
    .get(JS_PATH, () => asset(ASSETS.js, "text/javascript; charset=utf-8"), {
      detail: { summary: "Swagger UI script (served locally)", tags: ["pages"] },
    })
    .get(CSS_PATH, () => asset(ASSETS.css, "text/css; charset=utf-8"), {
      detail: { summary: "Swagger UI styles (served locally)", tags: ["pages"] },
    })
    .use(
      openapi({
        path: "/docs",
        specPath: "/docs/json",
        // The UI page is ours (above); the plugin only builds /docs/json.
        provider: null,
        documentation: {
          info: {
            title: "cuebot API",
            version: pkg.version,
            description:
              "Chat-bot commands, dashboard, overlays and game statistics for one Twitch channel. Bot and game endpoints answer one chat line with `format=text` (or automatically for Nightbot and Fossabot); errors are `{status, error: {code, message}}`.",
          },
          tags: [
            { name: "bot", description: "Chat-bot commands (API key; bot quota)" },
            { name: "heavy", description: "Clips and chatters (API key: heavy quota; session: panel limit)" },
            { name: "panel", description: "Dashboard routes (session cookie `app_sess`)" },
            { name: "overlay", description: "Overlay reads (overlay token)" },
            {
              name: "game",
              description: "Game statistics (anonymous per-IP limit, or an API key's bot quota)",
            },
            { name: "auth", description: "Login with Twitch" },
            { name: "system", description: "Health" },
            {
              name: "pages",
              description: "Pages and their assets (/docs and /docs/json serve this document)",
            },
          ],
          // The plugin serves these itself and leaves them out of its own listing.
          paths: {
            "/docs": {
              get: {
                summary: "This API reference (Swagger UI)",
                tags: ["pages"],
                responses: { 200: { description: "HTML" } },
              },
            },
            "/docs/json": {
              get: {
                summary: "This OpenAPI document",
                tags: ["pages"],
                responses: { 200: { description: "JSON" } },
              },
            },
            [JS_PATH]: {
              get: {
                summary: "Swagger UI script (served locally)",
                tags: ["pages"],
                responses: { 200: { description: "JavaScript" } },
              },
            },
            [CSS_PATH]: {
              get: {
                summary: "Swagger UI styles (served locally)",
                tags: ["pages"],
                responses: { 200: { description: "CSS" } },
              },
            },
          },
          components: {
            securitySchemes: {
              apiKeyHeader: { type: "apiKey", in: "header", name: "X-Api-Key" },
              apiKeyQuery: { type: "apiKey", in: "query", name: "apiKey" },
              session: { type: "apiKey", in: "cookie", name: "app_sess" },
              overlayTokenQuery: { type: "apiKey", in: "query", name: "token" },
              overlayTokenHeader: { type: "apiKey", in: "header", name: "X-Overlay-Token" },
            },
          },
        },
      }),
    );
}

function asset(body: string, type: string): Response {
  return new Response(body, { headers: { "content-type": type, "cache-control": "public, max-age=86400" } });
}
