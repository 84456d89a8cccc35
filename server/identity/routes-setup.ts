// GET and POST /setup: the first run finished in the browser with the one-time setup link that `serve`
// printed (CONTRACT §2; the work is setup.ts). Not a session request: the link's token is the credential.
import { Elysia } from "elysia";
import { ConfigError } from "../core/config.ts";
import { ApiError } from "../core/errors.ts";
import { currentInvocation } from "../core/invocation.ts";
import type { Logger } from "../core/log.ts";
import { jsonError } from "../http/errors.ts";
import { failedAuthentication } from "../http/quota.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import { setupPage } from "../web/first-run.ts";
import { messagePage, wantsHtml } from "../web/page.ts";
import {
  checkSetupForm,
  configuredOnDisk,
  finishSetup,
  isSetupProblem,
  problemMessage,
  type SetupContext,
  type SetupForm,
  type SetupProblem,
  setupFormOf,
} from "./setup.ts";

/** What the setup routes read: the setup itself, where users reach this server, the limits, the log. */
export interface SetupRoutesContext extends SetupContext {
  readonly publicUrl: string;
  readonly limits: RateLimits;
  readonly log: Logger;
}

const BACK = { href: "/", label: "Back to cuebot" };

/** Why a setup is refused: its page's words, and whether it counts as a failed authentication. */
interface SetupRefusal {
  counted: boolean;
  title: string;
  message: string;
}

/** Why this request may not set up (a 403 page or error body), or null when its token is live. */
function refusalOf(ctx: SetupContext, token: unknown): SetupRefusal | null {
  if (ctx.twitchApp.configured) {
    return {
      counted: false,
      title: "Twitch is already connected",
      message:
        "Twitch is already configured on this cuebot, so nothing was changed: log in from the home page.",
    };
  }
  if (configuredOnDisk(ctx)) {
    return {
      counted: false,
      title: "Twitch is already connected",
      message:
        "Twitch is already configured in this cuebot's config.json (by cuebot init), so nothing was changed: restart cuebot to log in with it.",
    };
  }
  if (ctx.setupLink?.accepts(token)) return null;
  return {
    counted: true,
    title: "This setup link does not work",
    message:
      "This setup link is not valid: cuebot prints a new one each time it starts, so use the link from the terminal where it started last. Nothing was changed.",
  };
}

/** A refused setup: 403 `forbidden` (a page for a browser), counted as a failed authentication. */
async function refused(ctx: SetupRoutesContext, request: Request, refusal: SetupRefusal): Promise<Response> {
  let headers: Record<string, string> = {};
  if (refusal.counted) {
    const failure = await failedAuthentication(
      ctx.limits,
      request,
      new ApiError(403, "forbidden", refusal.message),
    );
    if (failure.status === 429) throw failure;
    headers = failure.headers;
  }
  return wantsHtml(request)
    ? messagePage({ title: refusal.title, message: refusal.message, action: BACK }, 403, headers)
    : jsonError(403, "forbidden", refusal.message, headers);
}

const pageInput = (ctx: SetupRoutesContext, token: string) => ({
  token,
  redirectUrl: `${ctx.publicUrl}/auth/callback`,
  invocation: currentInvocation(),
});

/** The form again with what was wrong (the page), or `bad_request` naming the field. */
function badForm(
  ctx: SetupRoutesContext,
  request: Request,
  form: SetupForm,
  problem: SetupProblem,
): Response {
  if (!wantsHtml(request)) return jsonError(400, "bad_request", problemMessage(problem));
  return setupPage({ ...pageInput(ctx, form.token ?? ""), form, problem }, 400);
}

/** config.json cannot be read (edited by hand while serving): nothing was saved, and what to fix. */
function unreadableConfig(request: Request, error: ConfigError): Response {
  const message = `cuebot cannot read its settings file (${error.message}), so nothing was saved: correct or remove it, then send the form again.`;
  return wantsHtml(request)
    ? messagePage({ title: "The settings file cannot be read", message, action: BACK }, 500)
    : jsonError(500, "internal", message);
}

export function setupRoutes(ctx: SetupRoutesContext) {
  return new Elysia({ name: "cuebot.setup" })
    .get(
      "/setup",
      async ({ request }) => {
        const token = new URL(request.url).searchParams.get("token");
        const refusal = refusalOf(ctx, token);
        if (refusal) return refused(ctx, request, refusal);
        return setupPage(pageInput(ctx, String(token)));
      },
      {
        detail: {
          summary:
            "First-run setup page (the one-time link `serve` prints while Twitch is not configured): the redirect URL to register and the form",
          tags: ["pages"],
        },
      },
    )
    .post(
      "/setup",
      async ({ request, body }) => {
        const form = setupFormOf(body);
        // Checked and finished with no wait in between: two posts at once cannot both set up.
        const refusal = refusalOf(ctx, form.token);
        if (refusal) return refused(ctx, request, refusal);
        const values = checkSetupForm(form);
        if (isSetupProblem(values)) return badForm(ctx, request, form, values);
        try {
          finishSetup(ctx, values);
        } catch (error) {
          if (error instanceof ConfigError) return unreadableConfig(request, error);
          throw error;
        }
        ctx.log.info("Twitch login configured from the setup page; the setup link is spent", {
          owner: values.owner,
        });
        return new Response(null, { status: 303, headers: { location: "/", "cache-control": "no-store" } });
      },
      {
        detail: {
          summary:
            "Finishes the first-run setup: token, client_id, client_secret and optional owner (form or JSON) stored in config.json; 303 to /",
          tags: ["pages"],
        },
      },
    );
}
