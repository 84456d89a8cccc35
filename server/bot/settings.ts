import { Value } from "@sinclair/typebox/value";
import { foldedWord } from "../../db/chat-bot-rules.ts";
import { readCommandSettings, writeCommandSettings } from "../../db/command-settings.ts";
import { badRequest, containsNul } from "../core/errors.ts";
import { KeyedQueue } from "../core/keyed-queue.ts";
import type { MaybePromise } from "../core/maybe-promise.ts";
import { MAX_COOLDOWN_SECONDS } from "../vocabulary.ts";
import {
  ALIAS_PATTERN,
  COMMAND_NAMES,
  COMMANDS,
  type CommandName,
  type CommandOptions,
  MAX_ALIASES,
} from "./catalog.ts";
import type { CommandContext } from "./context.ts";

export interface CommandSettings<C extends CommandName = CommandName> {
  command: C;
  enabled: boolean;
  cooldownSeconds: number;
  options: CommandOptions<C>;
  /** Extra chat triggers (native chat answers `!<name>` and `!<alias>`), lower case, without "!". */
  aliases: readonly string[];
}

/** The channel's settings for one command: what was saved, over the command's defaults. */
export function commandSettings<C extends CommandName>(
  ctx: Pick<CommandContext, "db" | "settingsCache">,
  accountId: number,
  command: C,
): MaybePromise<CommandSettings<C>> {
  // Each key belongs to one command, which always stores its own settings type under it.
  return ctx.settingsCache.get(`${accountId}:${command}`, async () => {
    const settings = await loadCommandSettings(ctx, accountId, command);
    Object.freeze(settings.options);
    Object.freeze(settings.aliases);
    return settings;
  }) as MaybePromise<CommandSettings<C>>;
}

async function loadCommandSettings<C extends CommandName>(
  ctx: Pick<CommandContext, "db">,
  accountId: number,
  command: C,
): Promise<CommandSettings<C>> {
  const stored = await readCommandSettings(ctx.db, accountId, command);
  const defaults = COMMANDS[command].defaults as CommandOptions<C>;
  const merged = { ...defaults, ...(stored?.options ?? {}) };
  return {
    command,
    enabled: stored?.enabled ?? true,
    cooldownSeconds: stored?.cooldownSeconds ?? 0,
    // Options saved by an older version that no longer fit fall back to the defaults.
    options: Value.Check(COMMANDS[command].options, merged) ? (merged as CommandOptions<C>) : defaults,
    aliases: stored?.aliases ?? [...COMMANDS[command].aliases],
  };
}

export interface SettingsPatch {
  enabled?: unknown;
  cooldownSeconds?: unknown;
  options?: unknown;
  aliases?: unknown;
}

/** Aliases as the panel may send them: "!So", " so " and "so" are the same trigger. */
function parseAliases(value: unknown): string[] {
  if (!Array.isArray(value) || value.length > MAX_ALIASES) {
    throw badRequest(`The body field "aliases" must be a list of at most ${MAX_ALIASES} chat triggers.`);
  }
  const aliases: string[] = [];
  for (const item of value) {
    // Folded only once its shape is checked: the Kelvin sign is not a "k" (db/chat-bot-rules.ts).
    const alias = typeof item === "string" ? foldedWord(item.trim().replace(/^!/, "")) : null;
    if (alias === null || !ALIAS_PATTERN.test(alias)) {
      throw badRequest(
        `The body field "aliases" has ${JSON.stringify(item)}, which is not valid: use 1–25 plain letters a–z, digits or underscores (the "!" is optional).`,
      );
    }
    if (!aliases.includes(alias)) aliases.push(alias);
  }
  return aliases;
}

/**
 * A partial update from the panel checked against the current settings: every field is validated and
 * the first wrong one throws 400 naming it. Nothing is stored (a test run previews unsaved options).
 */
export function applySettingsPatch<C extends CommandName>(
  current: CommandSettings<C>,
  patch: SettingsPatch,
): CommandSettings<C> {
  const { command } = current;
  const next = { ...current };
  if (patch.enabled !== undefined) {
    if (typeof patch.enabled !== "boolean")
      throw badRequest('The body field "enabled" must be true or false.');
    next.enabled = patch.enabled;
  }
  if (patch.cooldownSeconds !== undefined) {
    const value = patch.cooldownSeconds;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_COOLDOWN_SECONDS) {
      throw badRequest(
        `The body field "cooldownSeconds" must be a whole number from 0 to ${MAX_COOLDOWN_SECONDS}.`,
      );
    }
    next.cooldownSeconds = value;
  }
  if (patch.options !== undefined) {
    const schema = COMMANDS[command].options;
    if (typeof patch.options !== "object" || patch.options === null || Array.isArray(patch.options)) {
      throw badRequest('The body field "options" must be an object.');
    }
    const candidate = { ...current.options, ...(patch.options as object) };
    // PostgreSQL stores no NUL character (jsonb refuses it); no chat line needs one either.
    if (containsNul(patch.options)) {
      throw badRequest(`The options of ${command} must not contain the NUL character (\\u0000).`);
    }
    const firstError = Value.Errors(schema, candidate).First();
    if (firstError) {
      const field = firstError.path.replace(/^\//, "").replaceAll("/", ".") || "options";
      throw badRequest(
        `The option "${field}" of ${command} is not valid: ${firstError.message.toLowerCase()}.`,
      );
    }
    next.options = candidate as CommandOptions<C>;
  }
  if (patch.aliases !== undefined) {
    next.aliases = parseAliases(patch.aliases);
  }
  return next;
}

/** A trigger may name one command only: an alias equal to a command's name or another's alias is refused. */
async function checkAliasConflicts(
  ctx: Pick<CommandContext, "db" | "settingsCache">,
  accountId: number,
  command: CommandName,
  aliases: readonly string[],
): Promise<void> {
  for (const other of COMMAND_NAMES) {
    const otherAliases = (await commandSettings(ctx, accountId, other)).aliases;
    for (const alias of aliases) {
      if (other !== command && alias === other) {
        throw badRequest(`The alias "${alias}" is the name of the ${other} command; choose another.`);
      }
      if (other !== command && otherAliases.includes(alias)) {
        throw badRequest(`The alias "${alias}" already triggers the ${other} command; choose another.`);
      }
    }
  }
}

/** Updates of one account's settings, per database: one at a time (see KeyedQueue). */
const updates = new WeakMap<object, KeyedQueue<number>>();

/**
 * Applies a partial update from the panel, validating every field; nothing is saved if any is wrong.
 * Two updates of one account (two tabs) run one after the other, each on what the other saved.
 */
export function updateCommandSettings<C extends CommandName>(
  ctx: Pick<CommandContext, "db" | "clock" | "settingsCache">,
  accountId: number,
  command: C,
  patch: SettingsPatch,
): Promise<CommandSettings<C>> {
  let queue = updates.get(ctx.db);
  if (!queue) {
    queue = new KeyedQueue();
    updates.set(ctx.db, queue);
  }
  return queue.run(accountId, () => applyUpdate(ctx, accountId, command, patch));
}

async function applyUpdate<C extends CommandName>(
  ctx: Pick<CommandContext, "db" | "clock" | "settingsCache">,
  accountId: number,
  command: C,
  patch: SettingsPatch,
): Promise<CommandSettings<C>> {
  const next = applySettingsPatch(await commandSettings(ctx, accountId, command), patch);
  if (patch.aliases !== undefined) await checkAliasConflicts(ctx, accountId, command, next.aliases);
  await writeCommandSettings(
    ctx.db,
    accountId,
    command,
    {
      enabled: next.enabled,
      cooldownSeconds: next.cooldownSeconds,
      options: next.options as Record<string, unknown>,
      aliases: [...next.aliases],
    },
    ctx.clock.now(),
  );
  ctx.settingsCache.clear();
  return next;
}
