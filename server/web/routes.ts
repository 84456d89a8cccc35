import { Elysia } from "elysia";
import { notFound } from "../http/errors.ts";
import { embedFolder } from "./assets.macro.ts" with { type: "macro" };
import { htmlResponse } from "./page.ts";

const PAGES = embedFolder("pages");
const ASSETS = embedFolder("assets");

function page(name: string): Response {
  const found = PAGES[name];
  if (!found) throw new Error(`page ${name} is not embedded`);
  return htmlResponse(found.body);
}

/** The landing page, the dashboard, and their assets, served from our origin only. */
export function webRoutes() {
  return new Elysia({ name: "cuebot.web" })
    .get("/", () => page("landing.html"), { detail: { hide: true } })
    .get("/dashboard", () => page("dashboard.html"), { detail: { hide: true } })
    .get(
      "/assets/:file",
      ({ params }) => {
        const asset = ASSETS[params.file];
        if (!asset) throw notFound();
        return new Response(asset.body, {
          headers: { "content-type": asset.type, "cache-control": "public, max-age=300" },
        });
      },
      { detail: { hide: true } },
    );
}
