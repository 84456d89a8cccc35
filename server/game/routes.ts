import { Elysia, t } from "elysia";
import type { Role } from "../../db/schema-enums.ts";
import { isUnreplacedTemplate } from "../core/chat-text.ts";
import { badRequest } from "../core/errors.ts";
import { andThen, type MaybePromise } from "../core/maybe-promise.ts";
import { type ApiKeyContext, authenticateOptionalBot } from "../http/auth.ts";
import type { ResponseSet } from "../http/final-response.ts";
import type { HeaderTarget } from "../http/quota.ts";
import { preparedReply } from "../http/replies.ts";
import { requestInfo } from "../http/request-info.ts";
import { ROLE_QUOTAS } from "../limits/tables.ts";
import type { AnonymousAddress } from "./budget.ts";
import type { GameType } from "./format.ts";
import { parsePlayer, parseType } from "./player.ts";
import { type GameContext, lastMatchRecord, rankRecord, statsRecord, todayRecord } from "./records.ts";

/** What the game routes read: the API-key checks and the game service. */
type GameRoutesContext = ApiKeyContext & GameContext;

/**
 * The game API (CONTRACT §6, SERVICE.md §4.2): rank, last match, today and stats of one player. Every
 * answer's `data` carries `text`, which the text-mode layer turns into a chat line for bots.
 */

/**
 * `type` read as every route reads its query (server/http/query-params.ts): the first value wins
 * when a parameter repeats. Elysia's parsed `query` would hand over the last one.
 */
function typeParam(request: Request): GameType | undefined {
  return parseType(requestInfo(request).query.get("type") ?? undefined);
}

/** Who is asking, as the game service needs it (a type, not an interface: Elysia's derive wants a record). */
type GameCaller = {
  cacheTtlMs: number;
  /** The client address of a caller without an API key: its provider calls draw from the anonymous share. */
  anonymous: AnonymousAddress;
};

/** A key holder of each role, made once: nothing is allocated per request for them. */
const KEY_HOLDERS = Object.fromEntries(
  Object.entries(ROLE_QUOTAS).map(([role, quota]) => [
    role,
    { cacheTtlMs: quota.commandCacheTtlMs, anonymous: null },
  ]),
) as Record<Role, GameCaller>;

/**
 * Who is asking decides the quota, the cache TTL and the budget share: with an API key, its role's bot
 * quota and command TTL; without one, the per-IP anonymous limit (applied in onRequest), the Default
 * TTL and the anonymous share of the provider budget (its address resolved already by that limit).
 */
function callerOf(ctx: GameRoutesContext, request: Request, set: HeaderTarget): MaybePromise<GameCaller> {
  return andThen(authenticateOptionalBot(ctx, request, set), (principal) =>
    principal
      ? KEY_HOLDERS[principal.account.role]
      : { cacheTtlMs: KEY_HOLDERS.Default.cacheTtlMs, anonymous: ctx.limits.clientIp.of(request) },
  );
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Paths with a missing (or an extra) segment get a 400 that says which, rather than a bare 404. */
function incompletePath(endpoint: string, rest: string | undefined): never {
  const segments = (rest ?? "").split("/").map(decodeSegment);
  parsePlayer(segments[0], segments[1], segments[2], endpoint);
  throw badRequest(`Too many path segments: use /api/game/${endpoint}/<region>/<name>/<tag>.`);
}

const typeQuery = (meaning: string) =>
  t.Object({
    type: t.Optional(
      t.String({ description: `1, 2 or 3: ${meaning}. Without it the full record is returned.` }),
    ),
    format: t.Optional(t.String({ description: "`text` for one chat line, `json` to force JSON." })),
    apiKey: t.Optional(t.String({ description: "Optional API key: its role's quota and cache TTL apply." })),
  });

const plainQuery = t.Object({
  format: t.Optional(t.String({ description: "`text` for one chat line, `json` to force JSON." })),
  apiKey: t.Optional(t.String({ description: "Optional API key: its role's quota and cache TTL apply." })),
});

const ERRORS_DOC =
  "Errors: 400 `bad_request` (name 3–16 / tag 3–5 characters, type 1–3), 400 `invalid_region`, " +
  "404 `player_not_found` (unknown player or no ranked data), 500 `upstream_error` (the provider is down, " +
  "rate-limited or misconfigured, or its budget is used up; `Retry-After` says when to retry if known). " +
  "Without an API key, lookups share at most half the provider's per-minute budget, each client address " +
  "an equal part of that half among the addresses asking in the last minute. When the provider fails, data up to 10 minutes old is served with `stale: true`.";

const header = (description: string) => ({ description, schema: { type: "string" as const } });

/** Every game route's answers as /docs lists them: the record (or its chat line), 304, and the errors. */
const RESPONSES = {
  200: {
    description:
      "`{status: 200, data}` with the record (its chat line in `data.text`), or in text mode the chat line alone. " +
      "Carries a strong `ETag` of the body: send it back in `If-None-Match` to get a 304 while the answer is unchanged (JSON only: text mode always answers 200 with its line).",
    headers: {
      ETag: header("A strong entity tag of this body (JSON and the chat line have different tags)."),
      "Cache-Control": header(
        "`private, no-cache`: the answer follows the caller's API key and counts against its quota, so no shared cache may keep it; a client may keep it and ask again with `If-None-Match`.",
      ),
    },
  },
  304: {
    description:
      "Not Modified: `If-None-Match` held this answer's `ETag` (or `*`; `W/` tags compare equal). No body; the same `ETag`, " +
      "`Cache-Control` and rate-limit headers. It counts against the quota or the per-IP limit like a 200.",
  },
  400: { description: "`bad_request`, `invalid_region` or `conflicting_api_keys` (no ETag on errors)." },
  401: {
    description:
      "`invalid_api_key`: an API key was sent and is not valid (without one, the per-IP limit applies).",
  },
  404: { description: "`player_not_found`." },
  429: { description: "`rate_limited`: the key's quota or the per-IP limit." },
  500: { description: "`upstream_error`, with `Retry-After` when the wait is known." },
};

/**
 * Before validation: who is asking (a wrong API key is a 401 even on a malformed request), then the
 * raw path's segments, which a bot may have sent as unreplaced variables or broken escapes.
 */
function authenticateGameCall(
  ctx: GameRoutesContext,
  request: Request,
  set: HeaderTarget,
): MaybePromise<GameCaller> {
  return andThen(callerOf(ctx, request, set), (caller) => {
    // Over a real socket Bun decodes a broken %-escape leniently (to U+FFFD); the raw path tells the truth.
    const path = requestInfo(request).path;
    // Only a "%" or a "$" can make a template or an escape: most paths are plain words.
    if (!path.includes("%") && !path.includes("$")) return caller;
    const tail = path.split("/").slice(-3);
    tail.forEach((segment, i) => {
      if (!segment.includes("%") && !segment.includes("$")) return;
      const what = ["region", "name", "tag"][i];
      // Streamer.bot's `%input0%` is not a %-escape: it is a variable the bot left unreplaced.
      if (isUnreplacedTemplate(segment)) {
        throw badRequest(`The path parameter "${what}" is missing: the bot sent its variable unreplaced.`);
      }
      if (decodeSegment(segment) === null) {
        throw badRequest(`The path parameter "${what}" is not valid URL encoding.`);
      }
    });
    return caller;
  });
}

export function gameRoutes(ctx: GameRoutesContext) {
  return (
    new Elysia({ name: "cuebot.game", prefix: "/api/game" })
      // Runs before validation: a wrong API key is a 401 even on a malformed request.
      // A promise with shared limits: Elysia awaits a derive that reads `=> f(` (its source-text
      // rule), so it stays an arrow returning the call.
      .derive(({ request, set }) => authenticateGameCall(ctx, request, set as HeaderTarget))
      .get(
        "/rank/:region/:name/:tag",
        ({ params, request, set, cacheTtlMs, anonymous }) => {
          const q = parsePlayer(params.region, params.name, params.tag, "rank");
          const type = typeParam(request);
          // An answer from fresh cached data is here at once, serialised already: no promise, no
          // JSON.stringify on the path of a repeated command.
          return andThen(rankRecord(ctx, q, type, cacheTtlMs, anonymous), (answer) =>
            preparedReply(request, set as ResponseSet, answer),
          );
        },
        {
          query: typeQuery(
            "1 rank (`Gold 2`), 2 plus RR (`Gold 2 - 45 RR`), 3 plus ELO (`Gold 2 - 45 RR (1145 ELO)`)",
          ),
          detail: {
            summary: "A player's competitive rank",
            description: `Rank, RR, last RR change and ELO, with the player's card. ${ERRORS_DOC}`,
            tags: ["game"],
            responses: RESPONSES,
          },
        },
      )
      .get(
        "/match/last/:region/:name/:tag",
        ({ params, request, set, cacheTtlMs, anonymous }) => {
          const q = parsePlayer(params.region, params.name, params.tag, "match/last");
          return andThen(lastMatchRecord(ctx, q, cacheTtlMs, anonymous), (answer) =>
            preparedReply(request, set as ResponseSet, answer),
          );
        },
        {
          query: plainQuery,
          detail: {
            summary: "A player's last competitive match",
            description:
              "Map, mode, every player's agent and K/D/A, both teams' result, and under `derived` the requested " +
              `player's team, result (win/loss/draw) and headshot percentage. ${ERRORS_DOC}`,
            tags: ["game"],
            responses: RESPONSES,
          },
        },
      )
      .get(
        "/today/:region/:name/:tag",
        ({ params, request, set, cacheTtlMs, anonymous }) => {
          const q = parsePlayer(params.region, params.name, params.tag, "today");
          const type = typeParam(request);
          return andThen(todayRecord(ctx, q, type, cacheTtlMs, anonymous), (answer) =>
            preparedReply(request, set as ResponseSet, answer),
          );
        },
        {
          query: typeQuery("1 wins/losses/draws and RR, 2 plus matches played, 3 plus winrate"),
          detail: {
            summary: "A player's competitive session over the last 24 hours",
            description:
              "Rolling 24 hours: matches, wins, losses, draws (from match results), RR change (from the rank " +
              `history) and winrate. A ranked player with no match in the window gets zeros. ${ERRORS_DOC}`,
            tags: ["game"],
            responses: RESPONSES,
          },
        },
      )
      .get(
        "/stats/:region/:name/:tag",
        ({ params, request, set, cacheTtlMs, anonymous }) => {
          const q = parsePlayer(params.region, params.name, params.tag, "stats");
          const type = typeParam(request);
          return andThen(statsRecord(ctx, q, type, cacheTtlMs, anonymous), (answer) =>
            preparedReply(request, set as ResponseSet, answer),
          );
        },
        {
          query: typeQuery("1 short text, 2 a sentence, 3 compact (`60% WR | Jett | HS 24.5%`)"),
          detail: {
            summary: "A player's statistics over the last 10 competitive matches",
            description:
              "Winrate (draws count as played), favourite agent (ties go to the most recently played) and " +
              `headshot percentage summed over head, body and leg hits. ${ERRORS_DOC}`,
            tags: ["game"],
            responses: RESPONSES,
          },
        },
      )
      .get("/rank", () => incompletePath("rank", ""), { detail: { hide: true } })
      .get("/rank/*", ({ params }) => incompletePath("rank", params["*"]), { detail: { hide: true } })
      .get("/match/last", () => incompletePath("match/last", ""), { detail: { hide: true } })
      .get("/match/last/*", ({ params }) => incompletePath("match/last", params["*"]), {
        detail: { hide: true },
      })
      .get("/today", () => incompletePath("today", ""), { detail: { hide: true } })
      .get("/today/*", ({ params }) => incompletePath("today", params["*"]), { detail: { hide: true } })
      .get("/stats", () => incompletePath("stats", ""), { detail: { hide: true } })
      .get("/stats/*", ({ params }) => incompletePath("stats", params["*"]), { detail: { hide: true } })
  );
}
