import {
  ALERT_LIMITS,
  ALERT_PLACEHOLDERS,
  type AlertSettings,
  type AlertType,
} from "../server/vocabulary.ts";

/**
 * What stream alerts keep (issue 25): the fields of an alert, a type's settings with their defaults,
 * the limits, and the checks every write passes before it reaches the database, so the dashboard and
 * any other writer are refused alike, naming the field. Pure: no database here (db/alerts.ts and
 * db/alert-assets.ts use it; server/alerts/model.ts re-exports the shapes). The shapes and limits
 * themselves are cuebot's vocabulary (server/vocabulary.ts), which the dashboard reads too.
 */

export type { AlertFields, AlertSettings, SubTier } from "../server/vocabulary.ts";
export { ALERT_LIMITS, ALERT_PLACEHOLDERS } from "../server/vocabulary.ts";

export const DEFAULT_TEMPLATES: Readonly<Record<AlertType, string>> = {
  follow: "{user} just followed!",
  subscribe: "{user} subscribed!",
  resub: "{user} subscribed for {months} months!",
  gift: "{user} gifted {amount} subs!",
  cheer: "{user} cheered {amount} bits!",
  raid: "{user} is raiding with {amount} viewers!",
  redemption: "{user} redeemed {reward}!",
};

export function defaultAlertSettings(type: AlertType): AlertSettings {
  return {
    enabled: true,
    template: DEFAULT_TEMPLATES[type],
    minAmount: 0,
    durationSeconds: 6,
    volume: 80,
    imageId: null,
    soundId: null,
    chatMessage: null,
  };
}

export type AlertDataErrorCode = "invalid_input" | "too_large" | "limit_reached";

/**
 * A write refused for what it asked, never for a fault: `field` names the input at fault (for the
 * dashboard's field errors; `bytes` for an upload's body) and the message says why in a streamer's words.
 */
export class AlertDataError extends Error {
  constructor(
    readonly code: AlertDataErrorCode,
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "AlertDataError";
  }
}

export const invalidAlertInput = (field: string, message: string) =>
  new AlertDataError("invalid_input", field, message);

/** `{` … `}` with no brace inside: every such pair in a template must be a placeholder. */
const BRACED = /\{([^{}]*)\}/g;
/** Control characters (line breaks, NUL) and the invisible direction marks that reorder a line. */
const CONTROL = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const PLACEHOLDER_LIST = ALERT_PLACEHOLDERS.map((name) => `{${name}}`).join(" ");

/**
 * Null when `text` may be saved as a template, else the sentence telling why: empty, too long, not one
 * line of plain text, or an unknown placeholder (named only when it is a short word, so odd text is
 * never echoed back). `allowMessage: false` is the chat line's check: `{message}` is refused there.
 */
export function templateProblem(text: string, options: { allowMessage: boolean }): string | null {
  if (text.trim() === "") return "A template needs some text.";
  if (!text.isWellFormed() || CONTROL.test(text)) {
    return "A template is one line of plain text (no line breaks or control characters).";
  }
  const length = [...text].length;
  if (length > ALERT_LIMITS.templateLength) {
    return `A template is at most ${ALERT_LIMITS.templateLength} characters (this one has ${length}).`;
  }
  for (const [, name = ""] of text.matchAll(BRACED)) {
    if (name === "message" && !options.allowMessage) {
      return "The chat line cannot use {message}: it never repeats what a viewer wrote.";
    }
    if (!(ALERT_PLACEHOLDERS as readonly string[]).includes(name)) {
      const shown = /^[A-Za-z_]\w{0,31}$/.test(name)
        ? `{${name}} is not a placeholder`
        : "Braces hold a placeholder";
      return `${shown}; use ${PLACEHOLDER_LIST}.`;
    }
  }
  return null;
}

function checkTemplate(text: unknown, field: string, allowMessage: boolean): string {
  if (typeof text !== "string") throw invalidAlertInput(field, "A template is text.");
  const problem = templateProblem(text, { allowMessage });
  if (problem !== null) throw invalidAlertInput(field, problem);
  return text.trim();
}

function checkWhole(
  value: unknown,
  field: string,
  range: { min: number; max: number },
  what: string,
): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < range.min || value > range.max) {
    throw invalidAlertInput(field, `${what} is a whole number from ${range.min} to ${range.max}.`);
  }
  return value;
}

function checkFlag(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") throw invalidAlertInput(field, "This is true or false.");
  return value;
}

/** An asset id as given: a positive whole number, or null for none. Ownership is checked by the store. */
function checkAssetRef(value: unknown, field: string): number | null {
  if (value === null) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1 || value > 2_147_483_647) {
    throw invalidAlertInput(field, "This is an uploaded file's id, or null for none.");
  }
  return value;
}

/**
 * The changes as they will be stored, each checked; the fields left out are absent. Asset ids are
 * only checked for shape here: db/alerts.ts checks the account owns an asset of that kind.
 */
export function checkAlertSettingsChanges(changes: Partial<AlertSettings>): Partial<AlertSettings> {
  const checked: Partial<AlertSettings> = {};
  const L = ALERT_LIMITS;
  if (changes.enabled !== undefined) checked.enabled = checkFlag(changes.enabled, "enabled");
  if (changes.template !== undefined) checked.template = checkTemplate(changes.template, "template", true);
  if (changes.minAmount !== undefined) {
    checked.minAmount = checkWhole(changes.minAmount, "minAmount", L.minAmount, "The minimum");
  }
  if (changes.durationSeconds !== undefined) {
    checked.durationSeconds = checkWhole(
      changes.durationSeconds,
      "durationSeconds",
      L.durationSeconds,
      "An alert's duration in seconds",
    );
  }
  if (changes.volume !== undefined)
    checked.volume = checkWhole(changes.volume, "volume", L.volume, "The volume");
  if (changes.imageId !== undefined) checked.imageId = checkAssetRef(changes.imageId, "imageId");
  if (changes.soundId !== undefined) checked.soundId = checkAssetRef(changes.soundId, "soundId");
  if (changes.chatMessage !== undefined) {
    const line = changes.chatMessage;
    checked.chatMessage =
      line === null || (typeof line === "string" && line.trim() === "")
        ? null
        : checkTemplate(line, "chatMessage", false);
  }
  return checked;
}
