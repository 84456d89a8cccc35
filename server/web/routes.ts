import { Elysia } from "elysia";
import type { Context } from "../context.ts";
import { notAuthenticated } from "../http/auth.ts";
import { notFound } from "../http/errors.ts";
import { failedAuthentication } from "../http/quota.ts";
import { embedFolder } from "./assets.macro.ts" with { type: "macro" };
import { htmlResponse } from "./page.ts";

const PAGES = embedFolder("pages");
const ASSETS = embedFolder("assets");

function page(name: string, headers: Record<string, string> = {}): Response {
  const found = Object.hasOwn(PAGES, name) ? PAGES[name] : undefined;
  if (!found) throw new Error(`page ${name} is not embedded`);
  return htmlResponse(found.body, 200, headers);
}

/** The landing page, the dashboard, and their assets, served from our origin only. */
export function webRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.web" })
    .get("/", () => page("landing.html"), {
      detail: { summary: "Landing page (log in with Twitch)", tags: ["pages"] },
    })
    .get("/dashboard", () => page("dashboard.html"), {
      detail: { summary: "The dashboard (needs the session cookie)", tags: ["pages"] },
    })
    .get(
      "/overlay/:token",
      ({ params, request }) => {
        if (!ctx.accounts.byCredential("overlay-token", params.token)) {
          const failure = failedAuthentication(ctx.limits, request, notAuthenticated());
          if (failure.status === 429) throw failure;
          throw notFound(
            "This overlay link is not valid (the token may have been replaced); copy it again from the dashboard.",
          );
        }
        // OBS loads this page by URL: the token must never leak onwards through a Referer.
        return page("overlay.html", { "referrer-policy": "no-referrer" });
      },
      { detail: { summary: "The OBS overlay page for an overlay token", tags: ["pages"] } },
    )
    .get(
      "/assets/:file",
      ({ params }) => {
        // Own keys only: "constructor" or "__proto__" are not files.
        const asset = Object.hasOwn(ASSETS, params.file) ? ASSETS[params.file] : undefined;
        if (!asset) throw notFound();
        return new Response(asset.body, {
          headers: { "content-type": asset.type, "cache-control": "public, max-age=300" },
        });
      },
      { detail: { summary: "The pages' scripts and styles", tags: ["pages"] } },
    );
}
