import { asc, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { chatBots, chatSettings, commandSettings, events, overlayState } from "./schema.ts";

/** Read-only views of an account's settings, overlay state and events, for the data export. */

export function listCommandSettings(db: Db, accountId: number) {
  return db
    .select()
    .from(commandSettings)
    .where(eq(commandSettings.accountId, accountId))
    .orderBy(asc(commandSettings.command))
    .all()
    .map((row) => ({
      command: row.command,
      enabled: row.enabled,
      cooldownSeconds: row.cooldownSeconds,
      options: JSON.parse(row.options) as Record<string, unknown>,
      aliases: row.aliases === null ? null : (JSON.parse(row.aliases) as string[]),
      updatedAt: new Date(row.updatedAt).toISOString(),
    }));
}

/** Native chat for the export: the switch, the last state, and the linked bot's login (never its tokens). */
export function readChatExport(db: Db, accountId: number) {
  const settings = db.select().from(chatSettings).where(eq(chatSettings.accountId, accountId)).get();
  const bot = db
    .select({ login: chatBots.login, twitchUserId: chatBots.twitchUserId })
    .from(chatBots)
    .where(eq(chatBots.accountId, accountId))
    .get();
  return {
    enabled: settings?.enabled ?? false,
    state: settings?.state ?? "off",
    botAccount: bot ? { login: bot.login, id: bot.twitchUserId } : null,
  };
}

export function readOverlayState(db: Db, accountId: number) {
  const row = db.select().from(overlayState).where(eq(overlayState.accountId, accountId)).get();
  return row
    ? {
        state: JSON.parse(row.state) as Record<string, unknown>,
        version: row.version,
        updatedAt: new Date(row.updatedAt).toISOString(),
      }
    : null;
}

export function listEvents(db: Db, accountId: number) {
  return db
    .select()
    .from(events)
    .where(eq(events.accountId, accountId))
    .orderBy(asc(events.at), asc(events.id))
    .all()
    .map((row) => ({
      at: new Date(row.at).toISOString(),
      command: row.command,
      caller: row.caller,
      outcome: row.outcome,
      latencyMs: row.latencyMs,
    }));
}
