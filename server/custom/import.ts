import { ApiError } from "../core/errors.ts";
import { type CustomCommand, DEFAULT_COOLDOWN_SECONDS, MAX_COMMANDS } from "./changes.ts";
import { nightbotTableCommands } from "./import-table.ts";
import { type ImportDialect, translateResponse } from "./import-variables.ts";
import { CUSTOM_LEVELS, type CustomLevel, DEFAULT_LEVEL } from "./levels.ts";
import { MAX_COOLDOWN_SECONDS, MAX_COUNT, MAX_RESPONSE_LENGTH, MIN_COOLDOWN_SECONDS } from "./management.ts";
import { parseCommandName } from "./names.ts";

/**
 * The import of a streamer's commands from Nightbot or StreamElements (issue 24): it reads the file as
 * its bot's API returns it and plans what would be stored, so the dashboard can show what will be
 * added, what conflicts and what cannot be expressed before anything is written. Pure: no I/O.
 *
 * Shapes (chat-bot-commands.md §4): Nightbot's `GET /1/commands` is `{commands: [{name, message,
 * coolDown, count, userLevel, alias?}]}`; StreamElements' `GET /bot/commands/{channel}` is a bare list
 * of `{command, reply, accessLevel, cooldown: {user, global}, enabled, aliases, keywords, …}`; neither
 * bot has a file export of its own. Text is Nightbot's command table copied from its pages
 * (import-table.ts), read into the API's shape first. A field of the wrong type is the whole body's error (400 naming its
 * path); a field of the right type that cuebot cannot express refuses that one command only.
 *
 * Decisions: a cooldown, global or StreamElements' per-user one, is clamped into 5–300 s (0 stays 0,
 * "none") and the change is listed under `adjusted`, because refusing a command for a 2 s cooldown
 * would only send the streamer to edit it by hand; so is whatever else is dropped to fit (aliases,
 * keywords, cost). Nightbot's list has no per-user cooldown: its commands get none. Levels round up to the next cuebot level, so nobody gains access. An import never
 * replaces a command, existing or built-in; the first of two same-named commands wins, even when it
 * is itself refused. A StreamElements command that is off is refused, as storing it would turn it on.
 * Past the channel's 500 commands, the rest of the file is refused one by one, in the file's order.
 */

export type ImportFormat = ImportDialect;

/** Commands one file may hold; a longer one is refused whole, before anything is looked at. */
export const MAX_IMPORT_COMMANDS = 1000;

/** One line for the streamer about one command of the file. */
export interface ImportNote {
  name: string;
  why: string;
}

export interface ImportPlan {
  format: ImportFormat;
  /** Commands to store, in cuebot's model, in the file's order. */
  add: CustomCommand[];
  /** Commands in `add` that were changed to fit, and how. */
  adjusted: ImportNote[];
  /** Commands whose name is taken: by an existing command, a built-in that is on, or the file itself. */
  conflicts: ImportNote[];
  /** Commands cuebot cannot express. */
  unsupported: ImportNote[];
}

export interface ImportRequest {
  /** The parsed JSON body, as received; text is Nightbot's command table as a browser copies it. */
  body: unknown;
  format: ImportFormat | "detect";
  /** The channel's custom command names (with or without `!`, any case). */
  existingNames: Iterable<string>;
  /** The built-in command names (and aliases) that are on in this channel. */
  builtinNamesOn: Iterable<string>;
  /** The commands the channel's actions answer (db/actions.ts listActionCommandNames). */
  actionCommands?: Iterable<string>;
}

/** One command as read from either file, in cuebot's terms but not yet checked against its rules. */
interface SourceCommand {
  dialect: ImportDialect;
  rawName: string;
  message: string;
  level: CustomLevel;
  cooldownSeconds: number;
  /** Per chatter (StreamElements' `cooldown.user`); 0 for none. */
  userCooldownSeconds: number;
  /** The command it runs (`-a=`), as stored, or null. */
  aliasOf: string | null;
  count: number;
  /** Why the command cannot be imported at all, found while reading it. */
  refusal?: string;
  /** What was changed to fit. */
  notes: string[];
}

type JsonObject = Record<string, unknown>;

/** C0 controls but tab and line breaks, and DEL: nothing a chat line can carry. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const NIGHTBOT_LEVELS: ReadonlySet<string> = new Set(CUSTOM_LEVELS);

/** The plan for importing `request.body`; throws a 400 `ApiError` naming the path of a malformed body. */
export function planImport(request: ImportRequest): ImportPlan {
  const body = typeof request.body === "string" ? pastedTable(request.body, request.format) : request.body;
  const format = formatOf(body, request.format);
  const commands = format === "nightbot" ? readNightbot(body) : readStreamElements(body);
  const existing = nameSet(request.existingNames);
  const builtins = nameSet(request.builtinNamesOn);
  const taken = { builtins, actions: nameSet(request.actionCommands ?? []), existing };
  const plan: ImportPlan = { format, add: [], adjusted: [], conflicts: [], unsupported: [] };
  const seen = new Set<string>();
  let room = Math.max(0, MAX_COMMANDS - existing.size);
  for (const command of commands) {
    const parsed = parseCommandName(command.rawName);
    if (!parsed.ok) {
      plan.unsupported.push({ name: printableName(command.rawName), why: parsed.error });
      continue;
    }
    const { name } = parsed;
    const conflict = conflictOf(name, seen, taken);
    seen.add(name);
    if (conflict) {
      plan.conflicts.push({ name, why: conflict });
      continue;
    }
    const checked: Checked = command.refusal
      ? { ok: false, why: command.refusal }
      : checkedCommand(name, command);
    if (!checked.ok) {
      plan.unsupported.push({ name, why: checked.why });
    } else if (room === 0) {
      plan.unsupported.push({
        name,
        why: `The channel would have more than ${MAX_COMMANDS} custom commands.`,
      });
    } else {
      room--;
      plan.add.push(checked.command);
      if (checked.notes.length > 0) plan.adjusted.push({ name, why: capitalized(checked.notes) });
    }
  }
  return plan;
}

/** Why `name` cannot be added, in the order a streamer would fix it, or null. */
function conflictOf(
  name: string,
  seen: ReadonlySet<string>,
  taken: { builtins: ReadonlySet<string>; actions: ReadonlySet<string>; existing: ReadonlySet<string> },
): string | null {
  if (seen.has(name)) return "The file holds this name more than once; only the first is imported.";
  if (taken.builtins.has(name))
    return "A built-in command of this name is on; turn it off to import this one.";
  if (taken.actions.has(name))
    return "One of this channel's actions answers this command; change that action's trigger to import this one.";
  if (taken.existing.has(name))
    return "A custom command of this name exists already; the import does not replace it.";
  return null;
}

const CHANNEL_NOT_COMMANDS =
  "This is your Nightbot channel, not its commands: paste the table from your commands page, or the JSON of the request named “commands” that page makes.";

/** Text instead of JSON: Nightbot's command table as a browser copies it (import-table.ts). */
function pastedTable(text: string, asked: ImportFormat | "detect"): unknown {
  if (asked === "streamelements") {
    throw badBody("A StreamElements list is JSON, a list […]; a pasted table is read as Nightbot's.");
  }
  return nightbotTableCommands(text);
}

function formatOf(body: unknown, asked: ImportFormat | "detect"): ImportFormat {
  const nightbotShaped = isObject(body) && Object.hasOwn(body, "commands");
  // Nightbot's public channel lookup (`/1/channels/t/<login>`), opened instead of the commands.
  if (!nightbotShaped && isObject(body) && Object.hasOwn(body, "channel"))
    throw badBody(CHANNEL_NOT_COMMANDS);
  if (asked === "nightbot" && !nightbotShaped) {
    throw badBody(
      Array.isArray(body)
        ? 'This is a list, as StreamElements sends it; a Nightbot file is {"commands": […]}.'
        : `A Nightbot file is {"commands": […]}, not ${typeName(body)}.`,
    );
  }
  if (asked === "streamelements" && !Array.isArray(body)) {
    throw badBody(
      nightbotShaped
        ? 'This is {"commands": […]}, as Nightbot sends it; a StreamElements file is a list […].'
        : `A StreamElements file is a list of commands […], not ${typeName(body)}.`,
    );
  }
  if (asked !== "detect") return asked;
  if (Array.isArray(body)) return "streamelements";
  if (nightbotShaped) return "nightbot";
  throw badBody(
    `The file is neither Nightbot's {"commands": […]} nor StreamElements' list […]; it is ${typeName(body)}.`,
  );
}

function readNightbot(body: unknown): SourceCommand[] {
  const list = listOf(field(body as JsonObject, "commands"), "commands");
  return list.map((item, index) => {
    const path = `commands[${index}]`;
    const entry = objectOf(item, path);
    const notes: string[] = [];
    const coolDown = optionalNumber(entry, "coolDown", path, DEFAULT_COOLDOWN_SECONDS);
    const command: SourceCommand = {
      dialect: "nightbot",
      rawName: stringOf(field(entry, "name"), `${path}.name`),
      message: stringOf(field(entry, "message"), `${path}.message`),
      level: DEFAULT_LEVEL,
      cooldownSeconds: cooldownOf(coolDown, notes),
      userCooldownSeconds: 0,
      aliasOf: null,
      count: optionalNumber(entry, "count", path, 0),
      notes,
    };
    const level = optionalString(entry, "userLevel", path) ?? DEFAULT_LEVEL;
    const alias = optionalString(entry, "alias", path);
    if (NIGHTBOT_LEVELS.has(level)) command.level = level as CustomLevel;
    else if (level === "admin") {
      command.level = "owner";
      notes.push("Nightbot's admin level (its staff) becomes owner");
    } else if (level === "soop_vip") {
      command.level = "twitch_vip";
      notes.push("SOOP VIP becomes Twitch VIP");
    } else command.refusal = `Its user level "${printableName(level)}" is not one cuebot has.`;
    if (!Number.isInteger(command.count) || Math.abs(command.count) > MAX_COUNT) {
      command.refusal ??= `Its count is not a whole number up to ${MAX_COUNT.toLocaleString("en-US")}.`;
    }
    if (alias !== undefined && alias.trim() !== "") {
      const target = parseCommandName(alias);
      if (target.ok) command.aliasOf = target.name;
      else command.refusal ??= "It is an alias of a command whose name cuebot cannot take.";
    }
    return command;
  });
}

function readStreamElements(body: unknown): SourceCommand[] {
  const list = listOf(body, "the list");
  return list.map((item, index) => {
    const path = `[${index}]`;
    const entry = objectOf(item, path);
    const notes: string[] = [];
    const cooldown = optionalObject(entry, "cooldown", path);
    const global = cooldown ? optionalNumber(cooldown, "global", `${path}.cooldown`, 0) : 0;
    const perUser = cooldown ? optionalNumber(cooldown, "user", `${path}.cooldown`, 0) : 0;
    const command: SourceCommand = {
      dialect: "streamelements",
      rawName: stringOf(field(entry, "command"), `${path}.command`),
      message: stringOf(field(entry, "reply"), `${path}.reply`),
      level: streamElementsLevel(optionalNumber(entry, "accessLevel", path, 100), notes),
      cooldownSeconds: cooldownOf(global, notes),
      userCooldownSeconds: cooldownOf(perUser, notes, "per-user cooldown"),
      aliasOf: null,
      count: 0,
      notes,
    };
    // StreamElements keeps a command's count in a counter of the same name, which this list lacks.
    if (/\$[({]\s*count\s*[)}]/i.test(command.message)) notes.push("its count starts again at 0");
    streamElementsExtras(entry, path, command);
    return command;
  });
}

/**
 * What StreamElements has beside a name and a reply: a command that is off is not imported (storing it
 * would turn it on); aliases, keywords and regular expressions would answer to other words, which a
 * cuebot command does not; cost, whisper and online/offline switches are dropped with a note.
 */
function streamElementsExtras(entry: JsonObject, path: string, command: SourceCommand): void {
  const enabled = optionalBoolean(entry, "enabled", path) ?? true;
  const online = optionalBoolean(entry, "enabledOnline", path) ?? true;
  const offline = optionalBoolean(entry, "enabledOffline", path) ?? true;
  optionalBoolean(entry, "hidden", path);
  const cost = optionalNumber(entry, "cost", path, 0);
  const type = optionalString(entry, "type", path) ?? "say";
  const aliases = optionalStrings(entry, "aliases", path);
  const keywords = optionalStrings(entry, "keywords", path);
  const regex = optionalString(entry, "regex", path) ?? "";
  if (!enabled) command.refusal = "It is turned off in StreamElements.";
  else if (!online && !offline)
    command.refusal = "It is turned off both online and offline in StreamElements.";
  if (aliases.length > 0) command.notes.push(`its aliases (${aliases.length}) are not carried over`);
  if (keywords.length > 0 || regex !== "") command.notes.push("it no longer answers to keywords or a regex");
  if (online !== offline) command.notes.push(`it answers ${online ? "offline" : "online"} too`);
  if (cost > 0) command.notes.push(`it cost ${Math.round(cost)} points and is free here`);
  if (type === "whisper") command.notes.push("it was whispered and answers in chat here");
}

/** StreamElements' access level rounded up to cuebot's next level (chat-bot-commands.md §4.2). */
function streamElementsLevel(accessLevel: number, notes: string[]): CustomLevel {
  const steps: [number, CustomLevel][] = [
    [100, "everyone"],
    [250, "subscriber"],
    [300, "regular"],
    [400, "twitch_vip"],
    [500, "moderator"],
  ];
  for (const [threshold, level] of steps) {
    if (accessLevel > threshold) continue;
    if (accessLevel !== threshold && threshold !== 100)
      notes.push(`access level ${accessLevel} becomes ${level}`);
    return level;
  }
  if (accessLevel < 1500) notes.push(`access level ${accessLevel} (super moderator) becomes owner`);
  return "owner";
}

function cooldownOf(seconds: number, notes: string[], what = "cooldown"): number {
  const rounded = Math.round(seconds);
  const clamped = rounded <= 0 ? 0 : Math.min(MAX_COOLDOWN_SECONDS, Math.max(MIN_COOLDOWN_SECONDS, rounded));
  if (clamped !== seconds) notes.push(`its ${what} of ${seconds} s becomes ${clamped} s`);
  return clamped;
}

type Checked = { ok: true; command: CustomCommand; notes: string[] } | { ok: false; why: string };

/** The command in cuebot's model: its response rewritten into cuebot's variables and measured. */
function checkedCommand(name: string, source: SourceCommand): Checked {
  const { level, cooldownSeconds, userCooldownSeconds, aliasOf, count } = source;
  if (aliasOf === name) return { ok: false, why: "It is an alias of itself." };
  if (CONTROL.test(source.message)) return { ok: false, why: "Its response holds control characters." };
  const notes = [...source.notes];
  let message = source.message.trim();
  if (/[\t\r\n]/.test(message)) {
    message = message.replace(/[\t\r\n]+/g, " ");
    notes.push("line breaks become spaces");
  }
  // An alias may have no text of its own: the command it runs gets none (Nightbot's -a=).
  if (message === "" && aliasOf === null) return { ok: false, why: "Its response is empty." };
  // A response four times the limit stays too long whatever its variables become; it is not scanned.
  if (message.length > MAX_RESPONSE_LENGTH * 4) return { ok: false, why: tooLong(codePoints(message)) };
  const translated = translateResponse(message, source.dialect);
  if (!translated.ok) return { ok: false, why: sentence(translated.why) };
  const length = codePoints(translated.text);
  if (length > MAX_RESPONSE_LENGTH) return { ok: false, why: tooLong(length) };
  return {
    ok: true,
    command: { name, response: translated.text, level, cooldownSeconds, userCooldownSeconds, aliasOf, count },
    notes,
  };
}

function tooLong(length: number): string {
  return `Its response is ${length} characters; at most ${MAX_RESPONSE_LENGTH}.`;
}

/** A clause about the command as a sentence: "uses $(eval) …" → "It uses $(eval) …." */
function sentence(clause: string): string {
  return `It ${clause}.`;
}

/** Notes on what changed, as one sentence. */
function capitalized(notes: string[]): string {
  const text = notes.join("; ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/**
 * Controls, format characters (zero-width, direction overrides) and the blanks trolls use to hide
 * text (chat-bot-commands.md §7): the dashboard shows each as U+FFFD.
 */
const INVISIBLE =
  /[\p{C}\p{Zl}\p{Zp}\u00a0\u115f\u1160\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\uffa0]/gu;

/** A name the dashboard can show: invisible and direction-changing characters marked, long ones cut. */
function printableName(raw: string): string {
  const visible = raw.trim().replace(INVISIBLE, "\uFFFD");
  const points = Array.from(visible);
  if (points.length === 0) return "(no name)";
  return points.length > 40 ? `${points.slice(0, 40).join("")}…` : visible;
}

function nameSet(names: Iterable<string>): Set<string> {
  const set = new Set<string>();
  for (const name of names) set.add(name.trim().replace(/^!/, "").toLowerCase());
  return set;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

// Reading the body. Every read is of an own property, so `__proto__` and `constructor` keys in the
// body are plain data, and nothing inherited is taken for a field.

function field(entry: JsonObject, key: string): unknown {
  return Object.hasOwn(entry, key) ? entry[key] : undefined;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function listOf(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw badField(path, "a list", value);
  if (value.length > MAX_IMPORT_COMMANDS) {
    throw badBody(
      `The file has ${value.length} commands; at most ${MAX_IMPORT_COMMANDS} can be imported at once.`,
    );
  }
  return value;
}

function objectOf(value: unknown, path: string): JsonObject {
  if (!isObject(value)) throw badField(path, "an object", value);
  return value;
}

function stringOf(value: unknown, path: string): string {
  if (typeof value !== "string") throw badField(path, "text", value);
  return value;
}

function optionalString(entry: JsonObject, key: string, path: string): string | undefined {
  const value = field(entry, key);
  return value === undefined ? undefined : stringOf(value, `${path}.${key}`);
}

function optionalBoolean(entry: JsonObject, key: string, path: string): boolean | undefined {
  const value = field(entry, key);
  if (value === undefined || typeof value === "boolean") return value;
  throw badField(`${path}.${key}`, "true or false", value);
}

function optionalNumber(entry: JsonObject, key: string, path: string, fallback: number): number {
  const value = field(entry, key);
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value))
    throw badField(`${path}.${key}`, "a number", value);
  return value;
}

function optionalObject(entry: JsonObject, key: string, path: string): JsonObject | undefined {
  const value = field(entry, key);
  return value === undefined ? undefined : objectOf(value, `${path}.${key}`);
}

function optionalStrings(entry: JsonObject, key: string, path: string): string[] {
  const value = field(entry, key);
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw badField(`${path}.${key}`, "a list of texts", value);
  return value.map((item, index) => stringOf(item, `${path}.${key}[${index}]`));
}

function typeName(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "text";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return "true or false";
  return "an object";
}

function badField(path: string, expected: string, value: unknown): ApiError {
  return badBody(`${path} must be ${expected}, but it is ${typeName(value)}.`);
}

function badBody(message: string): ApiError {
  return new ApiError(400, "bad_request", message);
}
