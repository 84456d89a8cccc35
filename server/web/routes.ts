import { Elysia } from "elysia";
import { notFound } from "../core/errors.ts";
import { currentInvocation } from "../core/invocation.ts";
import { notAuthenticated } from "../http/auth.ts";
import { failedAuthentication } from "../http/quota.ts";
import type { Context } from "../runtime.ts";
import { embedFolder } from "./assets.macro.ts" with { type: "macro" };
import type { EmbeddedAsset } from "./assets.macro.ts";
import { bundleBrowserScript } from "./bundle.macro.ts" with { type: "macro" };
import { landingWithoutTwitch } from "./first-run.ts";
import { DEMO_BANNER, htmlResponse, OVERLAY_PAGE_CSP } from "./page.ts";

const PAGES = embedFolder("pages");
const SCRIPT = "text/javascript; charset=utf-8";
const ASSETS: Record<string, EmbeddedAsset> = {
  ...embedFolder("assets"),
  "dashboard.js": { body: bundleBrowserScript("app/main.ts"), type: SCRIPT },
  "overlay.js": { body: bundleBrowserScript("overlay/main.ts"), type: SCRIPT },
};
const FAVICON = ASSETS["favicon.svg"]!;

/** Demo mode marks every page it serves, so nobody mistakes simulated data for their channel. */
function withDemoBanner(html: string, demo: boolean): string {
  return demo ? html.replace(/<body([^>]*)>/, `<body$1>${DEMO_BANNER}`) : html;
}

function embeddedPage(name: string): string {
  const found = Object.hasOwn(PAGES, name) ? PAGES[name] : undefined;
  if (!found) throw new Error(`page ${name} is not embedded`);
  return found.body;
}

function asset(found: EmbeddedAsset): Response {
  return new Response(found.body, {
    headers: { "content-type": found.type, "cache-control": "public, max-age=300" },
  });
}

/** The landing page, the dashboard, and their assets, served from our origin only. */
export function webRoutes(ctx: Context) {
  const page = (name: string, headers: Record<string, string> = {}) =>
    htmlResponse(withDemoBanner(embeddedPage(name), ctx.config.demo), 200, headers);
  // Read per request: the setup page configures Twitch while the server runs.
  const landing = () => {
    const html = embeddedPage("landing.html");
    const shown = ctx.twitchApp.configured ? html : landingWithoutTwitch(html, currentInvocation());
    return htmlResponse(withDemoBanner(shown, ctx.config.demo));
  };
  return new Elysia({ name: "cuebot.web" })
    .get("/", landing, {
      detail: {
        summary: "Landing page (log in with Twitch; until Twitch is configured, how to configure it)",
        tags: ["pages"],
      },
    })
    .get("/dashboard", () => page("dashboard.html"), {
      detail: { summary: "The dashboard (needs the session cookie)", tags: ["pages"] },
    })
    .get(
      "/overlay/:token",
      async ({ params, request }) => {
        if (!(await ctx.accounts.byCredential("overlay-token", params.token))) {
          const failure = await failedAuthentication(ctx.limits, request, notAuthenticated());
          if (failure.status === 429) throw failure;
          throw notFound(
            "This overlay link is not valid (the token may have been replaced); copy it again from the dashboard.",
          );
        }
        // OBS loads this page by URL: the token must never leak onwards through a Referer. The
        // dashboard's own preview frames it (same origin only); no banner: OBS shows this page.
        return htmlResponse(embeddedPage("overlay.html"), 200, {
          "referrer-policy": "no-referrer",
          "content-security-policy": OVERLAY_PAGE_CSP,
          "x-frame-options": "SAMEORIGIN",
        });
      },
      { detail: { summary: "The OBS overlay page for an overlay token", tags: ["pages"] } },
    )
    .get(
      "/assets/:file",
      ({ params }) => {
        // Own keys only: "constructor" or "__proto__" are not files.
        const found = Object.hasOwn(ASSETS, params.file) ? ASSETS[params.file] : undefined;
        if (!found) throw notFound();
        return asset(found);
      },
      { detail: { summary: "The pages' scripts, styles and icon", tags: ["pages"] } },
    )
    .get("/favicon.ico", () => asset(FAVICON), {
      detail: { summary: "The site icon (SVG)", tags: ["pages"] },
    });
}
