import { and, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { commandSettings } from "./schema.ts";

export interface StoredCommandSettings {
  enabled: boolean;
  cooldownSeconds: number;
  options: Record<string, unknown>;
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
        updatedAt: now,
      },
    })
    .run();
}
