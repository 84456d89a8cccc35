import { Elysia, t } from "elysia";
import {
  commandStats,
  dailyCalls,
  dailyCommandCalls,
  distinctCallers,
  recentEvents,
  topCallers,
} from "../../db/events.ts";
import { asChannelOwner } from "../bot/upstream.ts";
import { integerParam } from "../core/params.ts";
import { authenticatePanel, ORIGIN_NOTE, PANEL_SECURITY } from "../http/panel-auth.ts";
import { queryString } from "../http/params.ts";
import type { Context } from "../runtime.ts";
import { activityWindow, keptAlerts, mergeActivity } from "./alert-activity.ts";
import { firstValue } from "./query.ts";

const ACTIVITY_PAGE = 50;
const TOP_CALLERS = 10;
const DAY_MS = 86_400_000;

/** Analytics, the activity feed and live state, each cached per the role's panel TTL (§8.3). */
export function insightRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-insights", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .get(
      "/analytics",
      async ({ principal: { account }, request }) => {
        const days = integerParam(firstValue(request, "days"), "days", { min: 1, max: 90, fallback: 7 });
        const data = await ctx.caches
          .panel<Record<string, unknown>>("analytics")
          .getOrLoad(`${account.id}:${days}`, account.role, async () => {
            await ctx.events.flush();
            const since = ctx.clock.now() - days * DAY_MS;
            const byCommand = await commandStats(ctx.db, account.id, since);
            const total = byCommand.reduce((n, c) => n + c.calls, 0);
            return {
              days,
              total_calls: total,
              ok_calls: byCommand.reduce((n, c) => n + c.ok, 0),
              distinct_callers: await distinctCallers(ctx.db, account.id, since),
              by_command: byCommand.map((c) => ({
                command: c.command,
                calls: c.calls,
                ok: c.ok,
                avg_latency_ms: c.avgLatencyMs,
              })),
              by_day: await dailyCalls(ctx.db, account.id, since),
              by_day_command: await dailyCommandCalls(ctx.db, account.id, since),
              top_callers: await topCallers(ctx.db, account.id, since, TOP_CALLERS),
            };
          });
        return { status: 200 as const, data };
      },
      {
        query: t.Object({
          days: queryString("1–90 (default 7)"),
        }),
        detail: {
          summary:
            "Command usage over the last N days: totals, per command, per UTC day (also per command) and the top callers",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    )
    .get(
      "/activity",
      async ({ principal: { account }, request }) => {
        const raw = firstValue(request, "before");
        const before =
          raw === undefined
            ? undefined
            : integerParam(raw, "before", { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: 1 });
        const data = await ctx.caches
          .panel<Record<string, unknown>>("activity")
          .getOrLoad(`${account.id}:${before ?? ""}`, account.role, async () => {
            await ctx.events.flush();
            const rows = await recentEvents(ctx.db, account.id, ACTIVITY_PAGE, before);
            const full = rows.length === ACTIVITY_PAGE;
            // This page's alerts end where the previous page's command call (the cursor's) was.
            const until =
              before === undefined
                ? Number.POSITIVE_INFINITY
                : ((await recentEvents(ctx.db, account.id, 1, before + 1))[0]?.at ??
                  Number.POSITIVE_INFINITY);
            const alerts = await keptAlerts(ctx, account.id);
            return {
              items: mergeActivity(rows, alerts, activityWindow(rows, full, until)),
              cursor: full ? String(rows.at(-1)!.id) : null,
            };
          });
        return { status: 200 as const, data };
      },
      {
        query: t.Object({
          before: queryString("cursor from the previous page"),
        }),
        detail: {
          summary:
            "Recent command calls and the channel's follows, subs, gifts, cheers, raids and redemptions, newest first",
          description: `\`data: {items, cursor}\`; an item is \`{kind: "command", id, at, command, caller, outcome, latency_ms, test, refused}\` (\`test\`: run from the dashboard, never counted; \`refused\`: why chat got no reply, one of cooldown, viewer_limit, user_level, chat_budget, or null; a refusal is listed at most once per viewer and reason per 30 s) or \`{kind: "alert", id, at, type, user, amount, text}\` (events from Twitch only: test alerts and replays are left out). \`?before=<cursor>\` pages back.\n\n${ORIGIN_NOTE}`,
          tags: ["panel"],
          security: PANEL_SECURITY,
        },
      },
    )
    .get(
      "/live",
      async ({ principal: { account } }) => {
        const data = await ctx.caches
          .panel<Record<string, unknown>>("live")
          .getOrLoad(String(account.id), account.role, () =>
            asChannelOwner(ctx, account, async (api, token) => {
              const stream = (await api.streams(token, [account.twitchUserId]))[0];
              if (!stream) return { live: false };
              return {
                live: true,
                title: stream.title,
                game_name: stream.game_name,
                viewer_count: stream.viewer_count,
                started_at: stream.started_at,
              };
            }),
          );
        const startedAt = typeof data.started_at === "string" ? Date.parse(data.started_at) : null;
        return {
          status: 200 as const,
          data: {
            ...data,
            uptime_seconds: startedAt ? Math.max(0, Math.floor((ctx.clock.now() - startedAt) / 1000)) : null,
          },
        };
      },
      {
        detail: {
          summary: "Whether the channel is live, with title, category, viewers and uptime",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    );
}
