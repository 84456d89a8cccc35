import { and, asc, count, eq, gte, lte, sql } from "drizzle-orm";
import {
  CHAT_BOT_LIMITS,
  ChatBotDataError,
  checkCommandName,
  checkCooldown,
  checkCount,
  checkText,
  checkUserLevel,
  limitReached,
  parseCommandName,
} from "./chat-bot-rules.ts";
import { type DataStore, isUniqueViolation } from "./data-store.ts";
import type { customCommands } from "./sqlite/schema.ts";

/** A channel's own command (`!discord`), Nightbot-style. Names are lower case, without "!". */
export type CustomCommand = Omit<typeof customCommands.$inferSelect, "accountId">;

/** A new command as given: the name as typed (`!Discord`), the options Nightbot's defaults when left out. */
export interface NewCustomCommand {
  name: string;
  response: string;
  userLevel?: string;
  cooldownSeconds?: number;
  /** Per chatter, on top of the global cooldown: 0 (none, the default) or 5–300 seconds. */
  userCooldownSeconds?: number;
  /** Nightbot's `-a=!other`, with or without its "!"; null or absent for none. */
  aliasTarget?: string | null;
  count?: number;
}

/** What an edit changes; whatever it leaves out stays as it was. */
export type CustomCommandChanges = Partial<Omit<NewCustomCommand, "name">>;

/** Which of the count's steps a `!deaths +` may take at once: far beyond any chat use, far within the column. */
const MAX_STEP = 1_000_000;

function withoutAccount(row: typeof customCommands.$inferSelect): CustomCommand {
  const { accountId: _, ...command } = row;
  return command;
}

function checkAlias(alias: string | null | undefined, name: string): string | null {
  if (alias === null || alias === undefined || alias.trim() === "") return null;
  const target = checkCommandName(alias, "aliasTarget");
  if (target === name) {
    throw new ChatBotDataError("invalid_input", "aliasTarget", `!${name} cannot be an alias of itself.`);
  }
  return target;
}

/** The checked columns an edit sets: only those it names. */
function checkedChanges(name: string, changes: CustomCommandChanges) {
  return {
    ...(changes.response !== undefined
      ? { response: checkText(changes.response, "response", "The response") }
      : {}),
    ...(changes.userLevel !== undefined ? { userLevel: checkUserLevel(changes.userLevel) } : {}),
    ...(changes.cooldownSeconds !== undefined
      ? { cooldownSeconds: checkCooldown(changes.cooldownSeconds) }
      : {}),
    ...(changes.userCooldownSeconds !== undefined
      ? { userCooldownSeconds: checkCooldown(changes.userCooldownSeconds, "userCooldownSeconds") }
      : {}),
    ...(changes.aliasTarget !== undefined ? { aliasTarget: checkAlias(changes.aliasTarget, name) } : {}),
    ...(changes.count !== undefined ? { count: checkCount(changes.count) } : {}),
  };
}

/** Every command of the account, by name. */
export async function listCustomCommands(s: DataStore, accountId: number): Promise<CustomCommand[]> {
  const rows = await s.all((db, t) =>
    db
      .select()
      .from(t.customCommands)
      .where(eq(t.customCommands.accountId, accountId))
      .orderBy(asc(t.customCommands.name)),
  );
  return rows.map(withoutAccount);
}

/** The command called `name` (as typed: `!Discord` finds `discord`), or undefined. */
export async function getCustomCommand(
  s: DataStore,
  accountId: number,
  name: string,
): Promise<CustomCommand | undefined> {
  const wanted = parseCommandName(name);
  if (wanted === null) return undefined;
  const row = await s.first((db, t) =>
    db
      .select()
      .from(t.customCommands)
      .where(and(eq(t.customCommands.accountId, accountId), eq(t.customCommands.name, wanted)))
      .limit(1),
  );
  return row && withoutAccount(row);
}

export async function countCustomCommands(s: DataStore, accountId: number): Promise<number> {
  const row = await s.first((db, t) =>
    db.select({ n: count() }).from(t.customCommands).where(eq(t.customCommands.accountId, accountId)),
  );
  return row?.n ?? 0;
}

function duplicate(name: string): ChatBotDataError {
  return new ChatBotDataError("duplicate", "name", `!${name} already exists; edit it instead.`);
}

/**
 * Adds a command. Refused (ChatBotDataError) when an input is invalid, the name is taken, or the
 * account has its 500 already. Two moderators adding the last free places at the same instant on
 * PostgreSQL may pass the limit by one each: it guards against floods, not arithmetic.
 */
export async function addCustomCommand(
  s: DataStore,
  accountId: number,
  input: NewCustomCommand,
  now: number,
): Promise<CustomCommand> {
  const name = checkCommandName(input.name);
  const row = {
    accountId,
    name,
    response: checkText(input.response, "response", "The response"),
    userLevel: checkUserLevel(input.userLevel ?? "everyone"),
    cooldownSeconds: checkCooldown(input.cooldownSeconds ?? 0),
    userCooldownSeconds: checkCooldown(input.userCooldownSeconds ?? 0, "userCooldownSeconds"),
    aliasTarget: checkAlias(input.aliasTarget, name),
    count: checkCount(input.count ?? 0),
    createdAt: now,
    updatedAt: now,
  };
  try {
    return await s.transaction(async (tx) => {
      if ((await countCustomCommands(tx, accountId)) >= CHAT_BOT_LIMITS.customCommandsPerAccount) {
        throw limitReached("name", "custom commands", CHAT_BOT_LIMITS.customCommandsPerAccount);
      }
      if (await getCustomCommand(tx, accountId, name)) throw duplicate(name);
      const added = await tx.first((db, t) => db.insert(t.customCommands).values(row).returning());
      return withoutAccount(added!);
    });
  } catch (error) {
    // Another writer took the name between the check and the insert.
    if (isUniqueViolation(error)) throw duplicate(name);
    throw error;
  }
}

/** Changes what `changes` names and keeps the rest; undefined when there is no such command. */
export async function editCustomCommand(
  s: DataStore,
  accountId: number,
  name: string,
  changes: CustomCommandChanges,
  now: number,
): Promise<CustomCommand | undefined> {
  const wanted = parseCommandName(name);
  if (wanted === null) return undefined;
  const set = checkedChanges(wanted, changes);
  if (Object.keys(set).length === 0) return await getCustomCommand(s, accountId, wanted);
  const row = await s.first((db, t) =>
    db
      .update(t.customCommands)
      .set({ ...set, updatedAt: now })
      .where(and(eq(t.customCommands.accountId, accountId), eq(t.customCommands.name, wanted)))
      .returning(),
  );
  return row && withoutAccount(row);
}

/** Whether there was such a command to delete. */
export async function deleteCustomCommand(s: DataStore, accountId: number, name: string): Promise<boolean> {
  const wanted = parseCommandName(name);
  if (wanted === null) return false;
  const row = await s.first((db, t) =>
    db
      .delete(t.customCommands)
      .where(and(eq(t.customCommands.accountId, accountId), eq(t.customCommands.name, wanted)))
      .returning({ name: t.customCommands.name }),
  );
  return row !== undefined;
}

/**
 * Adds `by` (1 unless told; negative counts down) to the command's count in one statement and
 * answers the new value: exact however many instances count at once, since each UPDATE reads the
 * row as the last committed one left it. Undefined when there is no such command; refused when the
 * count would leave what the column holds.
 */
export async function incrementCommandCount(
  s: DataStore,
  accountId: number,
  name: string,
  by = 1,
): Promise<number | undefined> {
  if (!Number.isSafeInteger(by) || Math.abs(by) > MAX_STEP) {
    throw new ChatBotDataError("invalid_input", "by", `A count changes by at most ${MAX_STEP} at once.`);
  }
  const wanted = parseCommandName(name);
  if (wanted === null) return undefined;
  const { min, max } = CHAT_BOT_LIMITS.count;
  // Bounds on the stored value, so neither database adds past its integer type.
  const lowest = Math.max(min - by, min);
  const highest = Math.min(max - by, max);
  const row = await s.first((db, t) =>
    db
      .update(t.customCommands)
      .set({ count: sql`${t.customCommands.count} + ${by}` })
      .where(
        and(
          eq(t.customCommands.accountId, accountId),
          eq(t.customCommands.name, wanted),
          gte(t.customCommands.count, lowest),
          lte(t.customCommands.count, highest),
        ),
      )
      .returning({ count: t.customCommands.count }),
  );
  if (row) return row.count;
  if (!(await getCustomCommand(s, accountId, wanted))) return undefined;
  throw new ChatBotDataError(
    "invalid_input",
    "count",
    `!${wanted}'s count cannot go beyond ${min} to ${max}.`,
  );
}

/** Sets the count (a moderator's `!deaths = 12`); the new value, or undefined when there is no such command. */
export async function setCommandCount(
  s: DataStore,
  accountId: number,
  name: string,
  value: number,
): Promise<number | undefined> {
  const next = checkCount(value);
  const wanted = parseCommandName(name);
  if (wanted === null) return undefined;
  const row = await s.first((db, t) =>
    db
      .update(t.customCommands)
      .set({ count: next })
      .where(and(eq(t.customCommands.accountId, accountId), eq(t.customCommands.name, wanted)))
      .returning({ count: t.customCommands.count }),
  );
  return row?.count;
}
