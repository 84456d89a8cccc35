import { and, asc, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { events } from "./schema.ts";

/**
 * Activity-feed notes that are not command calls (a chat reply Twitch dropped, outcome
 * `reply_dropped:<reason>`) stay out of the analytics counts.
 */
export const REPLY_DROPPED = "reply_dropped";
const IS_CALL = sql`${events.outcome} not like 'reply_dropped%'`;

export interface CommandEvent {
  accountId: number;
  at: number;
  command: string;
  caller: string;
  /** `ok`, or the error code the caller saw (`on_cooldown`, `upstream_error`, …). */
  outcome: string;
  latencyMs: number;
}

export function insertEvent(db: Db, event: CommandEvent): void {
  db.insert(events).values(event).run();
}

/** Removes events older than `before`; returns how many went. */
export function pruneEvents(db: Db, before: number): number {
  return db.delete(events).where(lt(events.at, before)).returning({ id: events.id }).all().length;
}

export interface EventRow {
  id: number;
  at: number;
  command: string;
  caller: string;
  outcome: string;
  latencyMs: number;
}

/** Newest first, strictly older than the `beforeId` cursor when given. */
export function recentEvents(db: Db, accountId: number, limit: number, beforeId?: number): EventRow[] {
  return db
    .select({
      id: events.id,
      at: events.at,
      command: events.command,
      caller: events.caller,
      outcome: events.outcome,
      latencyMs: events.latencyMs,
    })
    .from(events)
    .where(and(eq(events.accountId, accountId), beforeId === undefined ? undefined : lt(events.id, beforeId)))
    .orderBy(desc(events.id))
    .limit(limit)
    .all();
}

export interface CommandStats {
  command: string;
  calls: number;
  ok: number;
  avgLatencyMs: number;
}

export function commandStats(db: Db, accountId: number, since: number): CommandStats[] {
  return db
    .select({
      command: events.command,
      calls: sql<number>`count(*)`,
      ok: sql<number>`sum(case when ${events.outcome} = 'ok' then 1 else 0 end)`,
      avgLatencyMs: sql<number>`round(avg(${events.latencyMs}))`,
    })
    .from(events)
    .where(and(eq(events.accountId, accountId), gte(events.at, since), IS_CALL))
    .groupBy(events.command)
    .orderBy(asc(events.command))
    .all();
}

const utcDay = sql<string>`strftime('%Y-%m-%d', ${events.at} / 1000, 'unixepoch')`;

/** Calls per UTC day (`YYYY-MM-DD`). */
export function dailyCalls(db: Db, accountId: number, since: number): { day: string; calls: number }[] {
  return db
    .select({ day: utcDay, calls: sql<number>`count(*)` })
    .from(events)
    .where(and(eq(events.accountId, accountId), gte(events.at, since), IS_CALL))
    .groupBy(utcDay)
    .orderBy(asc(utcDay))
    .all();
}

/** Calls per UTC day and command (the dashboard's usage chart). */
export function dailyCommandCalls(
  db: Db,
  accountId: number,
  since: number,
): { day: string; command: string; calls: number }[] {
  return db
    .select({ day: utcDay, command: events.command, calls: sql<number>`count(*)` })
    .from(events)
    .where(and(eq(events.accountId, accountId), gte(events.at, since), IS_CALL))
    .groupBy(utcDay, events.command)
    .orderBy(asc(utcDay), asc(events.command))
    .all();
}

/** The viewers who called commands most often (panel tests and unknown callers left out). */
export function topCallers(
  db: Db,
  accountId: number,
  since: number,
  limit: number,
): { caller: string; calls: number }[] {
  const calls = sql<number>`count(*)`;
  return db
    .select({ caller: events.caller, calls })
    .from(events)
    .where(
      and(
        eq(events.accountId, accountId),
        gte(events.at, since),
        IS_CALL,
        sql`${events.caller} != '' and ${events.caller} != '(panel test)'`,
      ),
    )
    .groupBy(events.caller)
    .orderBy(desc(calls), asc(events.caller))
    .limit(limit)
    .all();
}

export function distinctCallers(db: Db, accountId: number, since: number): number {
  const row = db
    .select({ n: sql<number>`count(distinct ${events.caller})` })
    .from(events)
    .where(and(eq(events.accountId, accountId), gte(events.at, since), IS_CALL, sql`${events.caller} != ''`))
    .get();
  return row?.n ?? 0;
}
