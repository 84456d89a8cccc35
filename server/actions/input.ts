import {
  ChatBotDataError,
  checkCommandName,
  checkLine,
  checkUserLevel,
  codePoints,
} from "../../db/chat-bot-rules.ts";
import { OBS_STEP_TYPES } from "../obs/steps.ts";
import { ACTION_LIMITS } from "../vocabulary.ts";
import {
  ACTION_ALERT_KINDS,
  type ActionAlertKind,
  type ActionInput,
  type ActionStep,
  type ActionTrigger,
} from "./model.ts";

/*
 * An action as the streamer sends it (POST, and PUT, which replaces it whole), checked field by field
 * (CONTRACT §6 "Actions"): the first bad field is refused (ChatBotDataError, `field` its path, like
 * `steps[2].seconds`), unknown fields too, so nothing half-valid is stored. Pure: which command names
 * are free is names.ts's. `enabled` defaults to true, `cooldownSeconds` to 0, a command trigger's
 * `level` to everyone, an alert's `min` to 0.
 */

type Fields = Record<string, unknown>;

const invalid = (path: string, message: string) => new ChatBotDataError("invalid_input", path, message);

/** A key as a path names it: plain words as they are, anything else quoted and cut short (ASCII, for the header). */
function keyPath(parent: string, key: string): string {
  const shown = /^[A-Za-z0-9_]{1,40}$/.test(key)
    ? key
    : `[${JSON.stringify(key.slice(0, 40)).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}]`;
  if (parent === "") return shown;
  return shown.startsWith("[") ? `${parent}${shown}` : `${parent}.${shown}`;
}

function objectAt(value: unknown, path: string, what: string): Fields {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalid(path, `${what} must be a JSON object.`);
  return value as Fields;
}

/** Refuses a field that is not one of `known`, naming it. */
function onlyKnown(fields: Fields, path: string, what: string, known: readonly string[]): Fields {
  const unknown = Object.keys(fields).find((key) => !known.includes(key));
  if (unknown !== undefined)
    throw invalid(keyPath(path, unknown), `${what} has no such field; its fields are ${known.join(", ")}.`);
  return fields;
}

function text(fields: Fields, path: string, key: string): string {
  const value = fields[key];
  if (typeof value !== "string") throw invalid(keyPath(path, key), "It must be text.");
  return value;
}

function oneOf<T extends string>(fields: Fields, path: string, key: string, values: readonly T[]): T {
  const value = fields[key];
  const found = values.find((v) => v === value);
  if (found === undefined) throw invalid(keyPath(path, key), `It must be one of ${values.join(", ")}.`);
  return found;
}

function flag(fields: Fields, path: string, key: string, otherwise?: boolean): boolean {
  const value = fields[key] ?? otherwise;
  if (typeof value !== "boolean") throw invalid(keyPath(path, key), "It must be true or false.");
  return value;
}

function wholeNumber(fields: Fields, path: string, key: string, range: { min: number; max: number }): number {
  const value = fields[key] ?? range.min;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < range.min || value > range.max)
    throw invalid(keyPath(path, key), `It must be a whole number from ${range.min} to ${range.max}.`);
  return value;
}

/** Seconds above 0 and at most `max`; fractions allowed. */
function seconds(value: unknown, path: string, max: number): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > max)
    throw invalid(path, `It must be a number of seconds above 0 and at most ${max.toLocaleString("en-US")}.`);
  return value;
}

/** An OBS scene's or source's name: kept exactly as OBS spells it. */
function obsName(fields: Fields, path: string, key: string): string {
  const name = text(fields, path, key);
  const at = keyPath(path, key);
  if (name.trim() === "") throw invalid(at, "An OBS name cannot be empty.");
  if (name.length > ACTION_LIMITS.obsNameLength * 2 || codePoints(name) > ACTION_LIMITS.obsNameLength)
    throw invalid(at, `An OBS name is ${ACTION_LIMITS.obsNameLength} characters at most.`);
  if (!name.isWellFormed() || /\p{Cc}/u.test(name))
    throw invalid(at, "An OBS name is plain text (no line breaks or control characters).");
  return name;
}

/** A text source's text: may be empty or span lines; other control characters are refused. */
function sourceText(fields: Fields, path: string): string {
  const value = text(fields, path, "text");
  const at = keyPath(path, "text");
  if (value.length > ACTION_LIMITS.textLength * 2 || codePoints(value) > ACTION_LIMITS.textLength)
    throw invalid(at, `A text source's text is ${ACTION_LIMITS.textLength} characters at most.`);
  if (!value.isWellFormed() || /[^\P{Cc}\n\r\t]/u.test(value))
    throw invalid(
      at,
      "A text source's text is plain text (line breaks allowed, no other control characters).",
    );
  return value;
}

/** Text that must be one line (a chat line, a name), trimmed; too long is refused before it is counted. */
function line(fields: Fields, path: string, key: string, what: string, max: number): string {
  const value = text(fields, path, key);
  const at = keyPath(path, key);
  if (value.trim().length > max * 2) throw invalid(at, `${what} is ${max} characters at most.`);
  return checkLine(value, at, what, max);
}

const TRIGGER_TYPES = ["command", "alert", "stream", "button"] as const;

const TRIGGER_FIELDS: Record<ActionTrigger["type"], readonly string[]> = {
  command: ["type", "command", "level"],
  alert: ["type", "kind", "min", "reward"],
  stream: ["type", "state"],
  button: ["type"],
};

function trigger(value: unknown): ActionTrigger {
  const path = "trigger";
  const fields = objectAt(value, path, "A trigger");
  const type = oneOf(fields, path, "type", TRIGGER_TYPES);
  onlyKnown(fields, path, `A ${type} trigger`, TRIGGER_FIELDS[type]);
  switch (type) {
    case "command": {
      const command = checkCommandName(text(fields, path, "command"), keyPath(path, "command"));
      const level = checkUserLevel(
        fields.level === undefined ? "everyone" : text(fields, path, "level"),
        keyPath(path, "level"),
      );
      return { type, command, level };
    }
    case "alert":
      return alertTrigger(fields);
    case "stream":
      return { type, state: oneOf(fields, path, "state", ["online", "offline"] as const) };
    case "button":
      return { type };
  }
}

function alertTrigger(fields: Fields): ActionTrigger {
  const path = "trigger";
  const kind: ActionAlertKind = oneOf(fields, path, "kind", ACTION_ALERT_KINDS);
  const min = wholeNumber(fields, path, "min", { min: 0, max: 2_147_483_647 });
  let reward: string | null = null;
  if (fields.reward !== undefined && fields.reward !== null) {
    if (kind !== "redemption")
      throw invalid(keyPath(path, "reward"), "Only a redemption trigger names a reward.");
    const title = text(fields, path, "reward");
    reward =
      title.trim() === ""
        ? null
        : line(fields, path, "reward", "A reward's title", ACTION_LIMITS.rewardLength);
  }
  return { type: "alert", kind, min, reward };
}

const STEP_TYPES = [...OBS_STEP_TYPES, "chat", "wait"] as const;

const STEP_FIELDS: Record<(typeof STEP_TYPES)[number], readonly string[]> = {
  "obs.scene": ["type", "scene"],
  "obs.source": ["type", "scene", "source", "visible", "seconds"],
  "obs.text": ["type", "source", "text"],
  "obs.media": ["type", "source", "action"],
  chat: ["type", "text"],
  wait: ["type", "seconds"],
};

function step(value: unknown, path: string): ActionStep {
  const fields = objectAt(value, path, "A step");
  const type = oneOf(fields, path, "type", STEP_TYPES);
  onlyKnown(fields, path, `A ${type} step`, STEP_FIELDS[type]);
  switch (type) {
    case "obs.scene":
      return { type, scene: obsName(fields, path, "scene") };
    case "obs.source": {
      const base = { type, scene: obsName(fields, path, "scene"), source: obsName(fields, path, "source") };
      const visible = flag(fields, path, "visible");
      const back = fields.seconds ?? null;
      if (back === null) return { ...base, visible };
      return {
        ...base,
        visible,
        seconds: seconds(back, keyPath(path, "seconds"), ACTION_LIMITS.sourceSeconds),
      };
    }
    case "obs.text":
      return { type, source: obsName(fields, path, "source"), text: sourceText(fields, path) };
    case "obs.media":
      return {
        type,
        source: obsName(fields, path, "source"),
        action: oneOf(fields, path, "action", ["restart", "stop"] as const),
      };
    case "chat":
      return { type, text: line(fields, path, "text", "A chat line", ACTION_LIMITS.textLength) };
    case "wait":
      return { type, seconds: seconds(fields.seconds, keyPath(path, "seconds"), ACTION_LIMITS.waitSeconds) };
  }
}

function steps(value: unknown): ActionStep[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > ACTION_LIMITS.steps)
    throw invalid("steps", `An action has a list of 1 to ${ACTION_LIMITS.steps} steps.`);
  return value.map((item, i) => step(item, `steps[${i}]`));
}

const ACTION_FIELDS = ["name", "enabled", "cooldownSeconds", "trigger", "steps"];

/** The action a body asks for, every field checked; refused (ChatBotDataError naming the path) at the first bad one. */
export function parseActionInput(body: unknown): ActionInput {
  const fields = onlyKnown(objectAt(body, "body", "The body"), "", "An action", ACTION_FIELDS);
  return {
    name: line(fields, "", "name", "An action's name", ACTION_LIMITS.nameLength),
    enabled: flag(fields, "", "enabled", true),
    cooldownSeconds: wholeNumber(fields, "", "cooldownSeconds", ACTION_LIMITS.cooldownSeconds),
    trigger: trigger(fields.trigger),
    steps: steps(fields.steps),
  };
}
