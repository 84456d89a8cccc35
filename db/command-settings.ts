import { and, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { commandSettings } from "./schema.ts";

export interface StoredCommandSettings {
  enabled: boolean;
  cooldownSeconds: number;
  options: Record<string, unknown>;
  /** Chat triggers besides the name; null = the command's default aliases. */
  aliases: string[] | null;
  updatedAt: number;
}

export function readCommandSettings(
  db: Db,
  accountId: number,
  command: string,
): StoredCommandSettings | undefined {
  const row = db
    .select()
    .from(commandSettings)
    .where(and(eq(commandSettings.accountId, accountId), eq(commandSettings.command, command)))
    .get();
  if (!row) return undefined;
  return {
    enabled: row.enabled,
    cooldownSeconds: row.cooldownSeconds,
    options: JSON.parse(row.options) as Record<string, unknown>,
    aliases: row.aliases === null ? null : (JSON.parse(row.aliases) as string[]),
    updatedAt: row.updatedAt,
  };
}

export function writeCommandSettings(
  db: Db,
  accountId: number,
  command: string,
  settings: Omit<StoredCommandSettings, "updatedAt">,
  now: number,
): void {
  const row = {
    accountId,
    command,
    enabled: settings.enabled,
    cooldownSeconds: settings.cooldownSeconds,
    options: JSON.stringify(settings.options),
    aliases: settings.aliases === null ? null : JSON.stringify(settings.aliases),
    updatedAt: now,
  };
  db.insert(commandSettings)
    .values(row)
    .onConflictDoUpdate({
      target: [commandSettings.accountId, commandSettings.command],
      set: {
        enabled: row.enabled,
        cooldownSeconds: row.cooldownSeconds,
        options: row.options,
        aliases: row.aliases,
        updatedAt: now,
      },
    })
    .run();
}
