import { and, asc, count, eq } from "drizzle-orm";
import {
  CHAT_BOT_LIMITS,
  ChatBotDataError,
  checkIntervalMinutes,
  checkLine,
  checkMinChatLines,
  checkText,
  isRowKey,
  limitReached,
} from "./chat-bot-rules.ts";
import { type DataStore, isUniqueViolation } from "./data-store.ts";
import type { timers } from "./sqlite/schema.ts";

/** A message posted every `intervalMinutes` while live, after `minChatLines` chat lines (Nightbot's timers). */
export type Timer = Omit<typeof timers.$inferSelect, "accountId">;

export interface NewTimer {
  name: string;
  message: string;
  intervalMinutes: number;
  /** Default 2, as Nightbot's. */
  minChatLines?: number;
  /** Default true. */
  enabled?: boolean;
}

/** What an edit changes; whatever it leaves out stays as it was. */
export type TimerChanges = Partial<NewTimer>;

function withoutAccount(row: typeof timers.$inferSelect): Timer {
  const { accountId: _, ...timer } = row;
  return timer;
}

const checkName = (name: string) =>
  checkLine(name, "name", "A timer's name", CHAT_BOT_LIMITS.timerNameLength);

function duplicate(name: string): ChatBotDataError {
  return new ChatBotDataError("duplicate", "name", `A timer named "${name}" already exists.`);
}

function checkEnabled(enabled: boolean): boolean {
  if (typeof enabled !== "boolean")
    throw new ChatBotDataError("invalid_input", "enabled", "Enabled is true or false.");
  return enabled;
}

function checkedChanges(changes: TimerChanges) {
  return {
    ...(changes.name !== undefined ? { name: checkName(changes.name) } : {}),
    ...(changes.message !== undefined
      ? { message: checkText(changes.message, "message", "A timer's message") }
      : {}),
    ...(changes.intervalMinutes !== undefined
      ? { intervalMinutes: checkIntervalMinutes(changes.intervalMinutes) }
      : {}),
    ...(changes.minChatLines !== undefined ? { minChatLines: checkMinChatLines(changes.minChatLines) } : {}),
    ...(changes.enabled !== undefined ? { enabled: checkEnabled(changes.enabled) } : {}),
  };
}

/** Every timer of the account, in the order they were added. */
export async function listTimers(s: DataStore, accountId: number): Promise<Timer[]> {
  const rows = await s.all((db, t) =>
    db.select().from(t.timers).where(eq(t.timers.accountId, accountId)).orderBy(asc(t.timers.id)),
  );
  return rows.map(withoutAccount);
}

/** The accounts with at least one timer switched on (chat looks at no other channel's timers). */
export async function listAccountsWithTimers(s: DataStore): Promise<Set<number>> {
  const rows = await s.all((db, t) =>
    db.selectDistinct({ accountId: t.timers.accountId }).from(t.timers).where(eq(t.timers.enabled, true)),
  );
  return new Set(rows.map((r) => r.accountId));
}

export async function getTimer(s: DataStore, accountId: number, id: number): Promise<Timer | undefined> {
  if (!isRowKey(id)) return undefined;
  const row = await s.first((db, t) =>
    db
      .select()
      .from(t.timers)
      .where(and(eq(t.timers.accountId, accountId), eq(t.timers.id, id)))
      .limit(1),
  );
  return row && withoutAccount(row);
}

/**
 * Adds a timer; refused (ChatBotDataError) when an input is invalid, the name is taken or the
 * account has its 50 already (see addCustomCommand on the limit under concurrency).
 */
export async function addTimer(
  s: DataStore,
  accountId: number,
  input: NewTimer,
  now: number,
): Promise<Timer> {
  const row = {
    accountId,
    name: checkName(input.name),
    message: checkText(input.message, "message", "A timer's message"),
    intervalMinutes: checkIntervalMinutes(input.intervalMinutes),
    minChatLines: checkMinChatLines(input.minChatLines ?? CHAT_BOT_LIMITS.minChatLines.default),
    enabled: checkEnabled(input.enabled ?? true),
    lastPostedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    return await s.transaction(async (tx) => {
      const existing = await tx.first((db, t) =>
        db.select({ n: count() }).from(t.timers).where(eq(t.timers.accountId, accountId)),
      );
      if ((existing?.n ?? 0) >= CHAT_BOT_LIMITS.timersPerAccount) {
        throw limitReached("name", "timers", CHAT_BOT_LIMITS.timersPerAccount);
      }
      const added = await tx.first((db, t) =>
        db.insert(t.timers).values(row).onConflictDoNothing().returning(),
      );
      if (!added) throw duplicate(row.name);
      return withoutAccount(added);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(row.name);
    throw error;
  }
}

/** Changes what `changes` names and keeps the rest; undefined when there is no such timer. */
export async function editTimer(
  s: DataStore,
  accountId: number,
  id: number,
  changes: TimerChanges,
  now: number,
): Promise<Timer | undefined> {
  const set = checkedChanges(changes);
  if (!isRowKey(id)) return undefined;
  if (Object.keys(set).length === 0) return await getTimer(s, accountId, id);
  try {
    const row = await s.first((db, t) =>
      db
        .update(t.timers)
        .set({ ...set, updatedAt: now })
        .where(and(eq(t.timers.accountId, accountId), eq(t.timers.id, id)))
        .returning(),
    );
    return row && withoutAccount(row);
  } catch (error) {
    if (isUniqueViolation(error) && set.name !== undefined) throw duplicate(set.name);
    throw error;
  }
}

/** Whether there was such a timer to delete. */
export async function deleteTimer(s: DataStore, accountId: number, id: number): Promise<boolean> {
  if (!isRowKey(id)) return false;
  const row = await s.first((db, t) =>
    db
      .delete(t.timers)
      .where(and(eq(t.timers.accountId, accountId), eq(t.timers.id, id)))
      .returning({ id: t.timers.id }),
  );
  return row !== undefined;
}

/** Records that the timer posted at `at`; false when it is gone. */
export async function markTimerPosted(
  s: DataStore,
  accountId: number,
  id: number,
  at: number,
): Promise<boolean> {
  if (!isRowKey(id)) return false;
  const row = await s.first((db, t) =>
    db
      .update(t.timers)
      .set({ lastPostedAt: at })
      .where(and(eq(t.timers.accountId, accountId), eq(t.timers.id, id)))
      .returning({ id: t.timers.id }),
  );
  return row !== undefined;
}
