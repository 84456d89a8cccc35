import { Elysia, t } from "elysia";
import { ApiError, badRequest } from "../core/errors.ts";
import { authenticateOverlay } from "../overlay/routes.ts";
import type { OverlayTokenContext } from "../overlay/routes-stream.ts";
import type { ObsContext } from "./context.ts";
import { MAX_RELAY_PAGES } from "./relay-pages.ts";
import { parseRelayAnswer, parseRelayReport, RELAY_PATHS } from "./relay-protocol.ts";

/*
 * The overlay page's way back (`via: overlay`, obs/relay.ts): its view of OBS and each step's answer,
 * POSTed with the overlay token, read field by field. Reports and answers each have a budget per
 * account of ACCOUNT_POSTS in POST_WINDOW_MS: its most pages reporting every 5 s use 40, and one run
 * answers at most 20 steps. A made-up page id gets no budget of its own, and a burst of reports never
 * keeps a step's answer out. The account's panel limit counts them too.
 */

type HeaderBag = { headers: Record<string, string | number> };

const ACCOUNT_POSTS = 60;
const POST_WINDOW_MS = 10_000;

type PostKind = "state" | "answer";

/** Each account's reports and answers in the current window, on this instance. */
class AccountPosts {
  readonly #windows = new Map<string, { start: number; count: number }>();

  /** Null when admitted; else the whole seconds until the window ends (at least 1). */
  refusedFor(accountId: number, kind: PostKind, now: number): number | null {
    if (this.#windows.size > 10_000) this.#forgetOld(now);
    const key = `${accountId}:${kind}`;
    const window = this.#windows.get(key);
    if (!window || now - window.start >= POST_WINDOW_MS) {
      this.#windows.set(key, { start: now, count: 1 });
      return null;
    }
    if (window.count >= ACCOUNT_POSTS)
      return Math.max(1, Math.ceil((window.start + POST_WINDOW_MS - now) / 1000));
    window.count++;
    return null;
  }

  #forgetOld(now: number): void {
    for (const [key, window] of this.#windows)
      if (now - window.start >= POST_WINDOW_MS) this.#windows.delete(key);
  }
}

/** CONTRACT §7: a refused request is 429 rate_limited with Retry-After and X-RateLimit-Remaining: 0. */
const tooFast = (retryAfterSeconds: number) =>
  new ApiError(
    429,
    "rate_limited",
    `An account's overlay pages send at most ${ACCOUNT_POSTS} OBS reports (and as many answers) in ${POST_WINDOW_MS / 1000} s.`,
    {
      "retry-after": String(retryAfterSeconds),
      "x-ratelimit-limit": String(ACCOUNT_POSTS),
      "x-ratelimit-remaining": "0",
    },
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
  const posts = new AccountPosts();
  const admitted = (accountId: number, kind: PostKind) => {
    const retryAfter = posts.refusedFor(accountId, kind, performance.now());
    if (retryAfter !== null) throw tooFast(retryAfter);
  };
  return new Elysia({ name: "cuebot.obs-relay" })
    .derive(async ({ request, set }) => ({
      account: await authenticateOverlay(ctx, request, set as HeaderBag),
    }))
    .post(
      RELAY_PATHS.state,
      ({ account, body }) => {
        const report = checked(parseRelayReport(body));
        admitted(account.id, "state");
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
        admitted(account.id, "answer");
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
