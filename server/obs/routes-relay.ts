import { Elysia, t } from "elysia";
import { ApiError, badRequest } from "../core/errors.ts";
import { authenticateOverlay } from "../overlay/routes.ts";
import type { OverlayTokenContext } from "../overlay/routes-stream.ts";
import type { ObsContext } from "./context.ts";
import { MAX_RELAY_PAGES } from "./relay-pages.ts";
import { parseRelayAnswer, parseRelayReport, RELAY_PATHS } from "./relay-protocol.ts";

/*
 * The overlay page's way back (`via: overlay`, obs/relay.ts): its view of OBS and each step's answer,
 * POSTed with the overlay token, read field by field, at most PAGE_POSTS per page in PAGE_WINDOW_MS
 * (a report every 5 s and the answers leave plenty of room; the account's panel limit counts them too).
 */

type HeaderBag = { headers: Record<string, string | number> };

const PAGE_POSTS = 30;
const PAGE_WINDOW_MS = 10_000;

/** Each page's POSTs in the current window, on this instance. */
class PagePosts {
  readonly #windows = new Map<string, { start: number; count: number }>();

  admit(accountId: number, page: string, now: number): boolean {
    if (this.#windows.size > 10_000) this.#forgetOld(now);
    const key = `${accountId}:${page}`;
    const window = this.#windows.get(key);
    if (!window || now - window.start >= PAGE_WINDOW_MS) {
      this.#windows.set(key, { start: now, count: 1 });
      return true;
    }
    window.count++;
    return window.count <= PAGE_POSTS;
  }

  #forgetOld(now: number): void {
    for (const [key, window] of this.#windows)
      if (now - window.start >= PAGE_WINDOW_MS) this.#windows.delete(key);
  }
}

const tooFast = () =>
  new ApiError(
    429,
    "rate_limited",
    `An overlay page sends at most ${PAGE_POSTS} OBS reports in ${PAGE_WINDOW_MS / 1000} s.`,
  );

const tooManyPages = () =>
  new ApiError(
    429,
    "too_many_overlays",
    `At most ${MAX_RELAY_PAGES} overlay pages of an account reach OBS at once; close unused browser sources.`,
  );

function checked<T>(parsed: T | { bad: string }): T {
  if (typeof parsed === "object" && parsed !== null && "bad" in parsed)
    throw badRequest(`The body field "${parsed.bad}" is missing or not valid.`);
  return parsed as T;
}

const OVERLAY_SECURITY: Record<string, string[]>[] = [{ overlayTokenQuery: [] }, { overlayTokenHeader: [] }];

/** The overlay page's OBS reports and answers (overlay token). */
export function obsRelayRoutes(ctx: OverlayTokenContext & ObsContext) {
  const posts = new PagePosts();
  const admitted = (accountId: number, page: string) => {
    if (!posts.admit(accountId, page, performance.now())) throw tooFast();
  };
  return new Elysia({ name: "cuebot.obs-relay" })
    .derive(async ({ request, set }) => ({
      account: await authenticateOverlay(ctx, request, set as HeaderBag),
    }))
    .post(
      RELAY_PATHS.state,
      ({ account, body }) => {
        const report = checked(parseRelayReport(body));
        admitted(account.id, report.page);
        if (!ctx.obs.relay.report(account.id, report)) throw tooManyPages();
        return { status: 200 as const, data: { counted: true } };
      },
      {
        body: t.Unknown(),
        detail: {
          summary:
            "The overlay page's view of OBS (`via: overlay`): `{page, state, obsVersion, scenes, sources, code}`, every 5 s",
          tags: ["overlay"],
          security: OVERLAY_SECURITY,
        },
      },
    )
    .post(
      RELAY_PATHS.answer,
      ({ account, body }) => {
        const answer = checked(parseRelayAnswer(body));
        admitted(account.id, answer.page);
        ctx.obs.relay.answer(account.id, answer);
        return { status: 200 as const, data: { received: true } };
      },
      {
        body: t.Unknown(),
        detail: {
          summary:
            "The overlay page's answer to an OBS step: `{page, id, ok, wasVisible}` or `{page, id, ok: false, failed, error}`",
          tags: ["overlay"],
          security: OVERLAY_SECURITY,
        },
      },
    );
}
