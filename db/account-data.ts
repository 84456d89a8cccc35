import { asc, eq } from "drizzle-orm";
import { listAlertAssets } from "./alert-assets.ts";
import { ALERT_LIMITS } from "./alert-rules.ts";
import { alertHistory, readAlertChannel, readAlertSettings } from "./alerts.ts";
import { listCustomCommands } from "./custom-commands.ts";
import type { DataStore } from "./data-store.ts";
import {
  listModerationLog,
  type ModerationLogEntry,
  readModerationChannel,
  readModerationRules,
} from "./moderation.ts";
import { allQuotes } from "./quotes.ts";
import { listRegulars } from "./regulars.ts";
import { listTimers } from "./timers.ts";

/** Read-only views of an account's settings, overlay state, events, chat-bot data and alerts, for the data export. */

export async function listCommandSettings(s: DataStore, accountId: number) {
  const rows = await s.all((db, t) =>
    db
      .select()
      .from(t.commandSettings)
      .where(eq(t.commandSettings.accountId, accountId))
      .orderBy(asc(t.commandSettings.command)),
  );
  return rows.map((row) => ({
    command: row.command,
    enabled: row.enabled,
    cooldownSeconds: row.cooldownSeconds,
    options: JSON.parse(row.options) as Record<string, unknown>,
    aliases: row.aliases === null ? null : (JSON.parse(row.aliases) as string[]),
    updatedAt: new Date(row.updatedAt).toISOString(),
  }));
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The channel's own chat-bot data for the export (issue 24): custom commands with their counts,
 * regulars, quotes and timers, times as ISO strings.
 */
export async function readChatBotData(s: DataStore, accountId: number) {
  const commands = await listCustomCommands(s, accountId);
  const regulars = await listRegulars(s, accountId);
  const quotes = await allQuotes(s, accountId);
  const timers = await listTimers(s, accountId);
  return {
    customCommands: commands.map((c) => ({ ...c, createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt) })),
    regulars: regulars.map((r) => ({ id: r.twitchUserId, login: r.login, createdAt: iso(r.createdAt) })),
    quotes: quotes.map((q) => ({ ...q, createdAt: iso(q.createdAt), updatedAt: iso(q.updatedAt) })),
    timers: timers.map((t) => ({
      ...t,
      lastPostedAt: t.lastPostedAt === null ? null : iso(t.lastPostedAt),
      createdAt: iso(t.createdAt),
      updatedAt: iso(t.updatedAt),
    })),
  };
}

/**
 * Native chat for the export: the switch, the last state, the linked bot's login (never its tokens),
 * and what cuebot answers in chat of the channel's own (readChatBotData).
 */
export async function readChatExport(s: DataStore, accountId: number) {
  const settings = await s.first((db, t) =>
    db.select().from(t.chatSettings).where(eq(t.chatSettings.accountId, accountId)).limit(1),
  );
  const bot = await s.first((db, t) =>
    db
      .select({ login: t.chatBots.login, twitchUserId: t.chatBots.twitchUserId })
      .from(t.chatBots)
      .where(eq(t.chatBots.accountId, accountId))
      .limit(1),
  );
  return {
    enabled: settings?.enabled ?? false,
    state: settings?.state ?? "off",
    botAccount: bot ? { login: bot.login, id: bot.twitchUserId } : null,
    ...(await readChatBotData(s, accountId)),
  };
}

export async function readOverlayState(s: DataStore, accountId: number) {
  const row = await s.first((db, t) =>
    db.select().from(t.overlayState).where(eq(t.overlayState.accountId, accountId)).limit(1),
  );
  return row
    ? {
        state: JSON.parse(row.state) as Record<string, unknown>,
        version: row.version,
        updatedAt: new Date(row.updatedAt).toISOString(),
      }
    : null;
}

export async function listEvents(s: DataStore, accountId: number) {
  const rows = await s.all((db, t) =>
    db
      .select()
      .from(t.events)
      .where(eq(t.events.accountId, accountId))
      .orderBy(asc(t.events.at), asc(t.events.id)),
  );
  return rows.map((row) => ({
    at: new Date(row.at).toISOString(),
    command: row.command,
    caller: row.caller,
    outcome: row.outcome,
    latencyMs: row.latencyMs,
    test: row.test,
    refused: row.refused,
  }));
}

/**
 * Stream alerts for the export (issue 25): the switch and last state, every type's settings, the
 * history (oldest first) and the uploaded files as id, kind, type and size, never their bytes.
 */
export async function readAlertsExport(s: DataStore, accountId: number) {
  const channel = await readAlertChannel(s, accountId);
  const history = await alertHistory(s, accountId, ALERT_LIMITS.eventsKept);
  const assets = await listAlertAssets(s, accountId);
  return {
    enabled: channel?.enabled ?? false,
    state: channel?.state ?? "off",
    settings: await readAlertSettings(s, accountId),
    history: history.toReversed().map((e) => ({
      id: e.id,
      type: e.type,
      eventKey: e.eventKey,
      fields: e.fields,
      test: e.test,
      at: iso(e.at),
    })),
    assets: assets.map((a) => ({ ...a, createdAt: iso(a.createdAt) })),
  };
}

/**
 * Chat moderation for the export (issue 35): the switch and last state, the settings as saved (what
 * the streamer changed from the defaults), the shield's end, and the moderation log, oldest first.
 */
export async function readModerationExport(s: DataStore, accountId: number) {
  const channel = await readModerationChannel(s, accountId);
  const rules = await readModerationRules(s, accountId);
  const log: ModerationLogEntry[] = [];
  for (let before: number | null = null; ; ) {
    const page = await listModerationLog(s, accountId, { before, limit: 1_000 });
    log.push(...page);
    const last = page.at(-1);
    if (page.length < 1_000 || !last) break;
    before = last.id;
  }
  return {
    enabled: channel?.enabled ?? false,
    state: channel?.state ?? "off",
    filters: rules?.filters ?? {},
    shield: rules?.shield ?? {},
    shieldUntil: rules?.shieldUntil ? iso(rules.shieldUntil) : null,
    log: log.toReversed().map((entry) => ({ ...entry, at: iso(entry.at) })),
  };
}
