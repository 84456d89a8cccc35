import { findAccountByLogin } from "../../db/accounts.ts";
import type { Role } from "../../db/schema-enums.ts";
import { readStoredConfig, type StoredConfig, twitchLoginOf } from "../../server/core/config.ts";
import { openCore } from "../../server/core/context.ts";
import { prepareDataDir, writeConfigFile } from "../../server/core/data-dir.ts";
import { configureCommand, currentInvocation } from "../../server/core/invocation.ts";
import { createLogger } from "../../server/core/log.ts";
import { asCliFailure, loadCliConfig } from "../cli-context.ts";
import { flagValues, type SettingsOptions } from "../commands/server-options.ts";
import { type CliIo, type GlobalOptions, printJson } from "../output.ts";

/**
 * `cuebot init`: the data folder, secret key, config and database, each created only if missing; the
 * flags given are written to config.json (over stored values only with --force).
 */
export async function initDataFolder(
  io: CliIo,
  globals: GlobalOptions,
  options: SettingsOptions & { force?: boolean },
): Promise<void> {
  const flags = flagValues(options);
  // Validate every given value (and the existing config.json) before writing anything.
  const config = loadCliConfig(globals, { flags });
  let state: ReturnType<typeof prepareDataDir>;
  try {
    state = prepareDataDir(config.dataDir);
  } catch (error) {
    asCliFailure(error);
  }

  const stored = state.configCreated ? {} : readStoredConfig(config.dataDir);
  const next: StoredConfig = { ...stored };
  const written: string[] = [];
  const kept: string[] = [];
  for (const [key, given] of Object.entries(flags) as [keyof StoredConfig, string][]) {
    const value = storedValue(key, given);
    const current = stored[key];
    if (current !== undefined && String(current) !== String(value) && !options.force) {
      kept.push(key);
      continue;
    }
    (next as Record<string, unknown>)[key] = value;
    written.push(key);
  }
  writeConfigFile(config.dataDir, next);

  let schemaVersion = 0;
  let ownerRole: Role | null = null;
  try {
    const log = createLogger({
      level: "warn",
      format: "pretty",
      write: (l) => process.stderr.write(`${l}\n`),
    });
    // On PostgreSQL (CUEBOT_DATABASE_URL) this reaches it, migrates it and checks secret.key.
    const ctx = await openCore(loadCliConfig(globals), { log });
    schemaVersion = ctx.schema.applied;
    const owner = ctx.config.owner;
    if (owner) ownerRole = (await findAccountByLogin(ctx.db, owner))?.role ?? null;
    await ctx.close();
  } catch (error) {
    asCliFailure(error);
  }

  const effective = loadCliConfig(globals);
  const redirectUrl = `${effective.publicUrl ?? `http://localhost:${effective.port}`}/auth/callback`;
  if (globals.json) {
    return printJson(io, {
      dataDir: config.dataDir,
      created: state.created,
      secretCreated: state.secretCreated,
      written,
      kept,
      schemaVersion,
      redirectUrl,
    });
  }
  const lines = [
    `data folder: ${config.dataDir}${state.created ? " (created)" : " (already there; data kept)"}`,
    `secret key:  ${state.secretCreated ? "created (secret.key, readable by you only)" : "kept the existing one"}`,
    `config:      ${written.length ? `saved ${written.join(", ")}` : "no changes"}`,
  ];
  if (kept.length) lines.push(`             kept existing ${kept.join(", ")} (use --force to replace)`);
  lines.push(
    `database:    schema version ${schemaVersion}`,
    "",
    "Register this OAuth redirect URL with your Twitch application:",
    `  ${redirectUrl}`,
    "",
    nextStep(effective.twitch.clientId !== null && effective.twitch.clientSecret !== null),
  );
  // The owner becomes Partner when their account is created; one that exists already keeps its role.
  if (effective.owner && ownerRole && ownerRole !== "Partner") {
    lines.push(
      `${effective.owner} already has an account (role ${ownerRole}); to make it Partner: ${currentInvocation().command(`role set ${effective.owner} partner`)}`,
    );
  }
  io.out(lines.join("\n"));
}

/** What to run next, in the form that works where cuebot was started (core/invocation.ts). */
function nextStep(twitchConfigured: boolean): string {
  const invocation = currentInvocation();
  if (twitchConfigured) return `Next: ${invocation.serve}`;
  return `Next: ${invocation.serve}, then open the setup link it prints in a browser to connect Twitch (or run ${configureCommand(invocation)} first). To try everything without a Twitch account: ${invocation.demo}`;
}

/**
 * config.json keeps numbers as numbers and flags as booleans, as a person would write it, and the
 * owner as a login (`@` dropped, lower case; loadCliConfig has checked it is one).
 */
function storedValue(key: keyof StoredConfig, value: string): string | number | boolean {
  if (key === "trustProxy" && (value === "true" || value === "false")) return value === "true";
  if (key === "port") return Number(value);
  if (key === "owner") return twitchLoginOf(value) ?? value;
  return value;
}
