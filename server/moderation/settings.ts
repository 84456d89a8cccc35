// A channel's moderation settings: a PUT's changes checked and merged (a 400 names the offending path),
// and what is stored read back over the defaults (pure; the store and the route call these).
//
// Stored: only what differs from the defaults (`storedFilters`, `storedShield`), so a default changed
// by a later version reaches every streamer who never changed that setting.
import {
  DEFAULT_FILTER_SETTINGS,
  DEFAULT_SHIELD_SETTINGS,
  type FilterCommon,
  type FilterSettings,
  MODERATION_FILTERS,
  MODERATION_LIMITS,
  type ModerationFilter,
  type ShieldSettings,
  TERMS_ACTIONS,
  USER_LEVELS,
} from "../vocabulary.ts";
import { FILTER_DEFINITIONS } from "./filters/index.ts";
import { codePointCount } from "./line-text.ts";

export interface ModerationSettings {
  filters: FilterSettings;
  shield: ShieldSettings;
}

/** The settings after a PUT's changes, or what is wrong with them (`filters.caps.percent: …`). */
export type ModerationChanges = { ok: true; settings: ModerationSettings } | { ok: false; error: string };

/** What the store keeps: each filter's and the shield's settings that differ from the defaults. */
export type StoredFilters = { [F in ModerationFilter]?: Partial<FilterSettings[F]> };

/** A value checked (and tidied: a message trimmed), or what is wrong with it (`at` a sub-path). */
type Checked = { value: unknown } | { error: string; at?: string };
type Rule = (value: unknown) => Checked;

const boolean: Rule = (value) =>
  typeof value === "boolean" ? { value } : { error: "must be true or false" };

function integer(range: { min: number; max: number }): Rule {
  return (value) =>
    Number.isInteger(value) && (value as number) >= range.min && (value as number) <= range.max
      ? { value }
      : { error: `must be an integer from ${range.min} to ${range.max}` };
}

function oneOf(values: readonly string[]): Rule {
  return (value) =>
    typeof value === "string" && values.includes(value)
      ? { value }
      : { error: `must be one of ${values.join(", ")}` };
}

const message: Rule = (value) => {
  const text = typeof value === "string" ? value.trim() : "";
  return text !== "" && codePointCount(text) <= MODERATION_LIMITS.messageLength
    ? { value: text }
    : { error: `must be text of 1 to ${MODERATION_LIMITS.messageLength} characters` };
};

/** A list of texts, each trimmed (each filter's own `check` then reads the entries). */
function texts(max: number): Rule {
  return (value) => {
    if (!Array.isArray(value) || value.length > max)
      return { error: `must be a list of at most ${max} texts` };
    const index = value.findIndex((entry) => typeof entry !== "string");
    if (index >= 0) return { error: "must be text", at: `[${index}]` };
    return { value: value.map((entry: string) => entry.trim()) };
  };
}

type Rules<T> = { [K in keyof T]: Rule };

const COMMON_RULES: Rules<FilterCommon> = {
  enabled: boolean,
  exempt: oneOf(USER_LEVELS),
  timeoutSeconds: integer(MODERATION_LIMITS.timeoutSeconds),
  silent: boolean,
  message,
};

const OWN_RULES: { [F in ModerationFilter]: Rules<Omit<FilterSettings[F], keyof FilterCommon>> } = {
  links: { allow: texts(MODERATION_LIMITS.allowEntries) },
  caps: { minLength: integer(MODERATION_LIMITS.minLength), percent: integer(MODERATION_LIMITS.percent) },
  symbols: { minLength: integer(MODERATION_LIMITS.minLength), percent: integer(MODERATION_LIMITS.percent) },
  repetition: { max: integer(MODERATION_LIMITS.repetitionMax) },
  emotes: { max: integer(MODERATION_LIMITS.emotesMax) },
  length: { max: integer(MODERATION_LIMITS.lengthMax) },
  terms: { list: texts(MODERATION_LIMITS.terms), action: oneOf(TERMS_ACTIONS) },
};

const SHIELD_RULES: Rules<ShieldSettings> = {
  enabled: boolean,
  chatters: integer(MODERATION_LIMITS.shieldChatters),
  seconds: integer(MODERATION_LIMITS.shieldSeconds),
  minutes: integer(MODERATION_LIMITS.shieldMinutes),
};

function filterRules(name: ModerationFilter): Record<string, Rule> {
  return { ...COMMON_RULES, ...OWN_RULES[name] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Errors are thrown inside this module only, to leave the nested walk at the first one. */
class SettingsError extends Error {}

/**
 * `current` with the changes of a PUT body (`{filters?: {<name>?: {...}}, shield?: {...}}`; an
 * `enabled` beside them is the route's and is only checked to be a boolean). Only the settings named
 * change; the first problem found is the answer, naming its path.
 */
export function parseModerationChanges(body: unknown, current: ModerationSettings): ModerationChanges {
  try {
    if (!isObject(body)) throw new SettingsError("body: must be an object");
    for (const key of Object.keys(body)) {
      if (!["filters", "shield", "enabled"].includes(key)) throw new SettingsError(`${key}: unknown setting`);
    }
    if ("enabled" in body) checked("enabled", boolean, body.enabled);
    return {
      ok: true,
      settings: {
        filters: "filters" in body ? changedFilters(body.filters, current.filters) : current.filters,
        shield: "shield" in body ? changedShield(body.shield, current.shield) : current.shield,
      },
    };
  } catch (error) {
    if (error instanceof SettingsError) return { ok: false, error: error.message };
    throw error;
  }
}

function changedFilters(changes: unknown, current: FilterSettings): FilterSettings {
  if (!isObject(changes)) throw new SettingsError("filters: must be an object");
  const filters = { ...current };
  for (const [name, own] of Object.entries(changes)) {
    if (!isFilter(name)) throw new SettingsError(`filters.${name}: unknown filter`);
    filters[name] = changedFilter(name, own, current[name]) as never;
  }
  return filters;
}

function changedFilter<F extends ModerationFilter>(
  name: F,
  changes: unknown,
  current: FilterSettings[F],
): FilterSettings[F] {
  const filter = changedObject(`filters.${name}`, filterRules(name), changes, current);
  const problem = FILTER_DEFINITIONS[name].check?.(filter);
  if (problem) throw new SettingsError(`filters.${name}.${problem}`);
  return filter;
}

function changedShield(changes: unknown, current: ShieldSettings): ShieldSettings {
  return changedObject("shield", SHIELD_RULES, changes, current);
}

/** `current` with each named setting checked by its rule and replaced. */
function changedObject<T extends object>(
  path: string,
  rules: Record<string, Rule>,
  changes: unknown,
  current: T,
): T {
  if (!isObject(changes)) throw new SettingsError(`${path}: must be an object`);
  const changed = { ...current } as Record<string, unknown>;
  for (const [key, value] of Object.entries(changes)) {
    const rule = rules[key];
    if (!rule) throw new SettingsError(`${path}.${key}: unknown setting`);
    changed[key] = checked(`${path}.${key}`, rule, value);
  }
  // Every key was checked by the rule for its type, and the rest is `current`'s.
  return changed as T;
}

function checked(path: string, rule: Rule, value: unknown): unknown {
  const result = rule(value);
  if ("error" in result) throw new SettingsError(`${path}${result.at ?? ""}: ${result.error}`);
  return result.value;
}

function isFilter(name: string): name is ModerationFilter {
  return (MODERATION_FILTERS as readonly string[]).includes(name);
}

/**
 * Settings merged, by their stored JSON (the least recently read go first past MERGED_MAX): the
 * checks compile every term, so a stored value is checked once, not on every read. Callers share
 * the result and never change it.
 */
const MERGED_MAX = 100;
const merged = new Map<string, ModerationSettings>();

/**
 * The full settings from what the store holds (`storedFilters` / `storedShield` JSON, or anything):
 * the defaults, with each stored setting that is still valid over them. A list entry a later version no
 * longer accepts is dropped (the rest of the list stays). Memoised (see `merged`).
 */
export function mergeStoredSettings(stored: { filters: unknown; shield: unknown }): ModerationSettings {
  const key = JSON.stringify([stored.filters, stored.shield]) ?? "";
  const known = merged.get(key);
  if (known) {
    merged.delete(key);
    merged.set(key, known);
    return known;
  }
  const settings = mergeUncached(stored);
  if (merged.size >= MERGED_MAX) merged.delete(merged.keys().next().value ?? "");
  merged.set(key, settings);
  return settings;
}

function mergeUncached(stored: { filters: unknown; shield: unknown }): ModerationSettings {
  const filters = { ...DEFAULT_FILTER_SETTINGS };
  const storedFilters = isObject(stored.filters) ? stored.filters : {};
  for (const name of MODERATION_FILTERS) {
    filters[name] = storedFilter(name, storedFilters[name]) as never;
  }
  return { filters, shield: validOver(SHIELD_RULES, stored.shield, DEFAULT_SHIELD_SETTINGS) };
}

function storedFilter<F extends ModerationFilter>(name: F, stored: unknown): FilterSettings[F] {
  const filter = validOver(filterRules(name), stored, DEFAULT_FILTER_SETTINGS[name]);
  return withoutRejectedEntries(name, filter);
}

/** `defaults` with each stored setting its rule accepts. */
function validOver<T extends object>(rules: Record<string, Rule>, stored: unknown, defaults: T): T {
  const merged = { ...defaults } as Record<string, unknown>;
  if (!isObject(stored)) return defaults;
  for (const [key, value] of Object.entries(stored)) {
    const result = rules[key]?.(value);
    if (result && "value" in result) merged[key] = result.value;
  }
  // Only keys of `defaults` have rules, and each value passed the rule for its type.
  return merged as T;
}

/**
 * The filter without the list entries its `check` rejects (it names the first, `list[3]: …`): each
 * entry of that list checked alone, once. Anything else wrong: the filter's defaults.
 */
function withoutRejectedEntries<F extends ModerationFilter>(
  name: F,
  filter: FilterSettings[F],
): FilterSettings[F] {
  const check = FILTER_DEFINITIONS[name].check;
  const problem = check?.(filter);
  if (!check || !problem) return filter;
  const key = /^(\w+)\[\d+\]:/.exec(problem)?.[1] ?? "";
  const list: unknown = Reflect.get(filter, key);
  if (!Array.isArray(list)) return DEFAULT_FILTER_SETTINGS[name];
  const kept = list.filter((entry) => check({ ...filter, [key]: [entry] }) === null);
  const cleaned = { ...filter, [key]: kept };
  const left = check(cleaned);
  if (left === null) return cleaned;
  // Past a limit of the whole list (entries fine alone): the entries before the one named.
  const shortened = { ...filter, [key]: kept.slice(0, listIndex(left, key) ?? 0) };
  return check(shortened) === null ? shortened : DEFAULT_FILTER_SETTINGS[name];
}

/** The index a filter's problem names in its list `key` (`list[3]: …` → 3), if any. */
function listIndex(problem: string, key: string): number | null {
  const named = /^(\w+)\[(\d+)\]:/.exec(problem);
  return named?.[1] === key ? Number(named[2]) : null;
}

/** The filters' settings that differ from the defaults: what the store keeps. */
export function storedFilters(filters: FilterSettings): StoredFilters {
  const stored: Record<string, unknown> = {};
  for (const name of MODERATION_FILTERS) {
    const changed = differences(filters[name], DEFAULT_FILTER_SETTINGS[name]);
    if (Object.keys(changed).length > 0) stored[name] = changed;
  }
  return stored as StoredFilters;
}

/** The shield's settings that differ from the defaults: what the store keeps. */
export function storedShield(shield: ShieldSettings): Partial<ShieldSettings> {
  return differences(shield, DEFAULT_SHIELD_SETTINGS);
}

function differences<T extends object>(settings: T, defaults: T): Partial<T> {
  const changed: Partial<T> = {};
  for (const key of Object.keys(settings) as (keyof T)[]) {
    if (JSON.stringify(settings[key]) !== JSON.stringify(defaults[key])) changed[key] = settings[key];
  }
  return changed;
}
