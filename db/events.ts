import { and, asc, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { DataStore, Tables } from "./data-store.ts";
import type { CommandRefusal } from "./schema-enums.ts";

/**
 * Activity-feed notes that are not viewers' command calls stay out of the analytics counts: a chat
 * reply Twitch dropped (outcome `reply_dropped:<reason>`), a run from the dashboard (`test`), a chat
 * command a limit kept from a reply (`refused`).
 */
export const REPLY_DROPPED = "reply_dropped";
const isCall = (t: Tables) =>
  sql`${t.events.outcome} not like 'reply_dropped%' and ${t.events.test} = ${false} and ${t.events.refused} is null`;

/** The account's command calls since `since` (notes left out). */
const callsSince = (t: Tables, accountId: number, since: number) =>
  and(eq(t.events.accountId, accountId), gte(t.events.at, since), isCall(t));

/** Aggregates come back as bigint or numeric text from PostgreSQL: numbers on both dialects. */
const count = () => sql<number>`count(*)`.mapWith(Number);

export interface CommandEvent {
  accountId: number;
  at: number;
  command: string;
  caller: string;
  /** `ok`, or the error code the caller saw (`on_cooldown`, `upstream_error`, …); `refused` with `refused`. */
  outcome: string;
  latencyMs: number;
  /** A run from the dashboard (a command's test, Bot setup's "Test this line"): listed, never counted. */
  test: boolean;
  /** Why chat got no reply, when a limit kept it from one: listed, never counted as a call. */
  refused: CommandRefusal | null;
}

/** Removes events older than `before`; returns how many went. */
export async function pruneEvents(s: DataStore, before: number): Promise<number> {
  const gone = await s.all((db, t) =>
    db.delete(t.events).where(lt(t.events.at, before)).returning({ id: t.events.id }),
  );
  return gone.length;
}

export interface EventRow {
  id: number;
  at: number;
  command: string;
  caller: string;
  outcome: string;
  latencyMs: number;
  test: boolean;
  refused: CommandRefusal | null;
}

/** Newest first, strictly older than the `beforeId` cursor when given. */
export function recentEvents(
  s: DataStore,
  accountId: number,
  limit: number,
  beforeId?: number,
): Promise<EventRow[]> {
  return s.all((db, t) =>
    db
      .select({
        id: t.events.id,
        at: t.events.at,
        command: t.events.command,
        caller: t.events.caller,
        outcome: t.events.outcome,
        latencyMs: t.events.latencyMs,
        test: t.events.test,
        refused: t.events.refused,
      })
      .from(t.events)
      .where(
        and(
          eq(t.events.accountId, accountId),
          beforeId === undefined ? undefined : lt(t.events.id, beforeId),
        ),
      )
      .orderBy(desc(t.events.id))
      .limit(limit),
  );
}

export interface CommandStats {
  command: string;
  calls: number;
  ok: number;
  avgLatencyMs: number;
}

export function commandStats(s: DataStore, accountId: number, since: number): Promise<CommandStats[]> {
  return s.all((db, t) =>
    db
      .select({
        command: t.events.command,
        calls: count(),
        ok: sql<number>`sum(case when ${t.events.outcome} = 'ok' then 1 else 0 end)`.mapWith(Number),
        avgLatencyMs: sql<number>`round(avg(${t.events.latencyMs}))`.mapWith(Number),
      })
      .from(t.events)
      .where(callsSince(t, accountId, since))
      .groupBy(t.events.command)
      .orderBy(asc(t.events.command)),
  );
}

/** The UTC day (`YYYY-MM-DD`) of an event, in the store's dialect. */
function utcDay(s: DataStore, t: Tables): SQL<string> {
  return s.dialect === "sqlite"
    ? sql<string>`strftime('%Y-%m-%d', ${t.events.at} / 1000, 'unixepoch')`
    : sql<string>`to_char(to_timestamp(${t.events.at} / 1000.0) at time zone 'UTC', 'YYYY-MM-DD')`;
}

/** Calls per UTC day (`YYYY-MM-DD`). */
export function dailyCalls(
  s: DataStore,
  accountId: number,
  since: number,
): Promise<{ day: string; calls: number }[]> {
  return s.all((db, t) => {
    const day = utcDay(s, t);
    return db
      .select({ day, calls: count() })
      .from(t.events)
      .where(callsSince(t, accountId, since))
      .groupBy(day)
      .orderBy(asc(day));
  });
}

/** Calls per UTC day and command (the dashboard's usage chart). */
export function dailyCommandCalls(
  s: DataStore,
  accountId: number,
  since: number,
): Promise<{ day: string; command: string; calls: number }[]> {
  return s.all((db, t) => {
    const day = utcDay(s, t);
    return db
      .select({ day, command: t.events.command, calls: count() })
      .from(t.events)
      .where(callsSince(t, accountId, since))
      .groupBy(day, t.events.command)
      .orderBy(asc(day), asc(t.events.command));
  });
}

/** The viewers who called commands most often (unknown callers and notes left out). */
export function topCallers(
  s: DataStore,
  accountId: number,
  since: number,
  limit: number,
): Promise<{ caller: string; calls: number }[]> {
  return s.all((db, t) => {
    const calls = count();
    return db
      .select({ caller: t.events.caller, calls })
      .from(t.events)
      .where(and(callsSince(t, accountId, since), sql`${t.events.caller} != ''`))
      .groupBy(t.events.caller)
      .orderBy(desc(calls), asc(t.events.caller))
      .limit(limit);
  });
}

export async function distinctCallers(s: DataStore, accountId: number, since: number): Promise<number> {
  const row = await s.first((db, t) =>
    db
      .select({ n: sql<number>`count(distinct ${t.events.caller})`.mapWith(Number) })
      .from(t.events)
      .where(and(callsSince(t, accountId, since), sql`${t.events.caller} != ''`)),
  );
  return row?.n ?? 0;
}
