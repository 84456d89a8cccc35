import { and, eq } from "drizzle-orm";
import type { DataStore } from "./data-store.ts";

export interface StoredCommandSettings {
  enabled: boolean;
  cooldownSeconds: number;
  options: Record<string, unknown>;
  /** Chat triggers besides the name; null = the command's default aliases. */
  aliases: string[] | null;
  updatedAt: number;
}

export async function readCommandSettings(
  s: DataStore,
  accountId: number,
  command: string,
): Promise<StoredCommandSettings | undefined> {
  const row = await s.first((db, t) =>
    db
      .select()
      .from(t.commandSettings)
      .where(and(eq(t.commandSettings.accountId, accountId), eq(t.commandSettings.command, command)))
      .limit(1),
  );
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
  s: DataStore,
  accountId: number,
  command: string,
  settings: Omit<StoredCommandSettings, "updatedAt">,
  now: number,
): Promise<void> {
  const row = {
    accountId,
    command,
    enabled: settings.enabled,
    cooldownSeconds: settings.cooldownSeconds,
    options: JSON.stringify(settings.options),
    aliases: settings.aliases === null ? null : JSON.stringify(settings.aliases),
    updatedAt: now,
  };
  return s.run((db, t) =>
    db
      .insert(t.commandSettings)
      .values(row)
      .onConflictDoUpdate({
        target: [t.commandSettings.accountId, t.commandSettings.command],
        set: {
          enabled: row.enabled,
          cooldownSeconds: row.cooldownSeconds,
          options: row.options,
          aliases: row.aliases,
          updatedAt: now,
        },
      }),
  );
}
