import { Elysia, t } from "elysia";
import type { Account } from "../../db/accounts.ts";
import { asChannelOwner } from "../bot/upstream.ts";
import { badRequest } from "../core/errors.ts";
import { andThen, type MaybePromise } from "../core/maybe-promise.ts";
import { enumParam, integerParam } from "../core/params.ts";
import { SESSION_COOKIE } from "../core/sessions.ts";
import { notAuthenticated, optionalApiKey, presentedCredentials, readCookie } from "../http/auth.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import { queryString } from "../http/params.ts";
import { enforceLimit } from "../http/quota.ts";
import type { Context } from "../runtime.ts";
import type { HelixApi, HelixClip } from "../twitch/helix-api.ts";
import { HelixError } from "../twitch/helix-client.ts";
import { firstValue } from "./query.ts";

type HeaderBag = { headers: Record<string, string | number> };

/**
 * get-clips and chatters: with an API key they count against the heavy quota (not the bot quota);
 * with a session against the panel limit; with neither, 401.
 */
export function authenticateHeavy(ctx: Context, request: Request, set: HeaderBag): MaybePromise<Account> {
  const presented = presentedCredentials(request);
  if (presented.overlayToken) {
    throw notAuthenticated("An overlay token only reads overlays; use the API key or log in.");
  }
  if (presented.apiKey) {
    return andThen(optionalApiKey(ctx, request), (principal) => {
      const account = principal!.account;
      return andThen(enforceLimit(set, ctx.limits.accounts.checkHeavy(account), "heavy"), () => account);
    });
  }
  if (readCookie(request, SESSION_COOKIE)) {
    return andThen(authenticatePanel(ctx, request, set), (principal) => principal.account);
  }
  throw notAuthenticated("Send the API key (apiKey or X-Api-Key) or log in to the dashboard.");
}

const PERIOD_MS = { day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000 } as const;
const PERIODS = ["day", "week", "month", "all"] as const;

export interface ClipItem {
  id: string;
  url: string;
  title: string;
  creator_name: string;
  view_count: number;
  created_at: string;
  duration: number;
  thumbnail_url: string;
}

function clipItem(clip: HelixClip): ClipItem {
  return {
    id: clip.id,
    url: clip.url,
    title: clip.title,
    creator_name: clip.creator_name,
    view_count: clip.view_count,
    created_at: clip.created_at,
    duration: clip.duration,
    thumbnail_url: clip.thumbnail_url,
  };
}

/** A page from Helix; a cursor Twitch does not recognise (400) is the caller's `after`. */
async function helixPage<T>(
  ctx: Context,
  account: Account,
  call: (api: HelixApi, token: string) => Promise<T>,
): Promise<T> {
  try {
    return await asChannelOwner(ctx, account, call, [400]);
  } catch (error) {
    if (error instanceof HelixError && error.status === 400) {
      throw badRequest('The query parameter "after" is not a valid page cursor; start again without it.');
    }
    throw error;
  }
}

const HEAVY_SECURITY: Record<string, string[]>[] = [
  { apiKeyQuery: [] },
  { apiKeyHeader: [] },
  { session: [] },
];

const MAX_CURSOR = 500;

/** `after`, Twitch's page cursor, as given first: absent, or 1–500 characters (else 400 naming it). */
function cursorParam(request: Request): string | undefined {
  const after = firstValue(request, "after");
  if (after === undefined || (after.length >= 1 && after.length <= MAX_CURSOR)) return after;
  throw badRequest(`The query parameter "after" must be a cursor of 1 to ${MAX_CURSOR} characters.`);
}

export function heavyRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.heavy", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({
      account: await authenticateHeavy(ctx, request, set as HeaderBag),
    }))
    .get(
      "/get-clips",
      async ({ account, request }) => {
        const first = integerParam(firstValue(request, "first"), "first", { min: 1, max: 100, fallback: 20 });
        const period = enumParam(firstValue(request, "period"), "period", PERIODS, "week");
        const after = cursorParam(request);
        const key = `${account.id}:${period}:${first}:${after ?? ""}`;
        const page = await ctx.caches
          .panel<{ items: ClipItem[]; cursor: string | null }>("clips")
          .getOrLoad(key, account.role, () =>
            helixPage(ctx, account, async (api, token) => {
              const now = ctx.clock.now();
              // Helix defaults ended_at to started_at + 1 week, so a month needs an explicit end.
              const window =
                period === "all"
                  ? {}
                  : {
                      startedAt: new Date(now - PERIOD_MS[period]).toISOString(),
                      endedAt: new Date(now).toISOString(),
                    };
              const body = await api.clips(token, {
                broadcasterId: account.twitchUserId,
                first,
                after,
                ...window,
              });
              return { items: body.data.map(clipItem), cursor: body.pagination?.cursor ?? null };
            }),
          );
        return { status: 200 as const, data: page };
      },
      {
        query: t.Object({
          first: queryString("page size, 1–100 (default 20)"),
          after: queryString(`cursor from the previous page (1–${MAX_CURSOR} characters)`),
          period: queryString("day, week, month or all (default week)"),
        }),
        detail: {
          summary: "The channel's clips, most viewed first",
          tags: ["heavy"],
          security: HEAVY_SECURITY,
        },
      },
    )
    .get(
      "/chatters",
      async ({ account, request }) => {
        const first = integerParam(firstValue(request, "first"), "first", {
          min: 1,
          max: 1000,
          fallback: 100,
        });
        const after = cursorParam(request);
        const key = `${account.id}:list:${first}:${after ?? ""}`;
        const page = await ctx.caches
          .panel<{
            items: { user_id: string; user_login: string; user_name: string }[];
            cursor: string | null;
          }>("chatters")
          .getOrLoad(key, account.role, () =>
            helixPage(ctx, account, async (api, token) => {
              const body = await api.chatters(token, {
                broadcasterId: account.twitchUserId,
                moderatorId: account.twitchUserId,
                first,
                after,
              });
              const items = body.data
                .filter((c) => c.user_id && c.user_login)
                .map((c) => ({ user_id: c.user_id, user_login: c.user_login, user_name: c.user_name }));
              return { items, cursor: body.pagination?.cursor ?? null };
            }),
          );
        return { status: 200 as const, data: page };
      },
      {
        query: t.Object({
          first: queryString("page size, 1–1000 (default 100)"),
          after: queryString(`cursor from the previous page (1–${MAX_CURSOR} characters)`),
        }),
        detail: { summary: "Who is in chat right now", tags: ["heavy"], security: HEAVY_SECURITY },
      },
    );
}
