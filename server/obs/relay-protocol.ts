/*
 * What cuebot and the overlay page say to each other to carry out OBS steps from the streamer's
 * machine (`via: overlay`, CONTRACT §6 "Actions"). Down the overlay token's alert stream: `obs` (the
 * settings: where OBS listens and its password, or off) and `obs-step` (one step to carry out). Back
 * by POST with the overlay token: the page's view of OBS (its state, every few seconds: the heartbeat)
 * and each step's answer. Every message is read field by field on arrival, on both sides. Pure: the
 * page's bundle imports it too.
 */
import { type ObsStep, parseObsStep } from "./steps.ts";

/** The SSE event names on the alert stream. */
export const RELAY_EVENTS = { settings: "obs", step: "obs-step" } as const;

/** Where the page POSTs (with the overlay token). */
export const RELAY_PATHS = { state: "/api/overlay/obs/state", answer: "/api/overlay/obs/answer" } as const;

/** The page reports its view this often while open; a page not heard for RELAY_PAGE_TTL_MS stops counting. */
export const RELAY_HEARTBEAT_MS = 5_000;
export const RELAY_PAGE_TTL_MS = 15_000;

/** The settings as the page gets them: OBS to connect to, or nothing (off, or cuebot connects itself). */
export type RelaySettings = { enabled: true; url: string; password: string | null } | { enabled: false };

/** One step for the page, and the id its answer carries back. */
export interface RelayOrder {
  id: string;
  step: ObsStep;
}

/** What the page sees of OBS (the states of CONTRACT §6 but `off`). */
export const RELAY_PAGE_STATES = ["connecting", "connected", "auth_failed", "unreachable", "error"] as const;
export type RelayPageState = (typeof RELAY_PAGE_STATES)[number];

/** The page's report: its id (one per page load), its state and, while connected, OBS's version and names. */
export interface RelayReport {
  page: string;
  state: RelayPageState;
  obsVersion: string | null;
  scenes: string[];
  sources: string[];
  /** The last failure: obs-websocket's close code, or -1 before the handshake; null after a success. */
  code: number | null;
}

/** A step's answer: done (for `obs.source`, whether it was visible), or failed: OBS lacks it (`step`) or could not be asked (`obs`). */
export type RelayAnswer = { page: string; id: string } & (
  | { ok: true; wasVisible: boolean | null }
  | { ok: false; failed: "step" | "obs"; error: string }
);

/** Bounds of what the page sends (a field past them is refused, not cut; the body is at most 64 KiB, http/body-limit.ts). */
export const RELAY_LIMITS = {
  id: 64,
  names: 2_000,
  name: 512,
  version: 64,
  error: 500,
} as const;

type Fields = Record<string, unknown>;

const asObject = (value: unknown): Fields | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : null;

const isId = (value: unknown): value is string =>
  typeof value === "string" && /^[A-Za-z0-9-]+$/.test(value) && value.length <= RELAY_LIMITS.id;

const isShortText = (value: unknown, max: number): value is string =>
  typeof value === "string" && value.length <= max;

function namesOf(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length > RELAY_LIMITS.names) return null;
  return value.every((name) => isShortText(name, RELAY_LIMITS.name)) ? (value as string[]) : null;
}

const PAGE_STATES: ReadonlySet<string> = new Set(RELAY_PAGE_STATES);

/** A report as POSTed, or the name of its first bad field. */
export function parseRelayReport(value: unknown): RelayReport | { bad: string } {
  const v = asObject(value);
  if (!v) return { bad: "body" };
  if (!isId(v.page)) return { bad: "page" };
  if (typeof v.state !== "string" || !PAGE_STATES.has(v.state)) return { bad: "state" };
  if (v.obsVersion !== null && !isShortText(v.obsVersion, RELAY_LIMITS.version)) return { bad: "obsVersion" };
  const scenes = namesOf(v.scenes);
  if (!scenes) return { bad: "scenes" };
  const sources = namesOf(v.sources);
  if (!sources) return { bad: "sources" };
  if (v.code !== null && !Number.isSafeInteger(v.code)) return { bad: "code" };
  return {
    page: v.page,
    state: v.state as RelayPageState,
    obsVersion: v.obsVersion,
    scenes,
    sources,
    code: v.code as number | null,
  };
}

/** An answer as POSTed, or the name of its first bad field. */
export function parseRelayAnswer(value: unknown): RelayAnswer | { bad: string } {
  const v = asObject(value);
  if (!v) return { bad: "body" };
  if (!isId(v.page)) return { bad: "page" };
  if (!isId(v.id)) return { bad: "id" };
  if (v.ok === true) {
    if (v.wasVisible !== null && typeof v.wasVisible !== "boolean") return { bad: "wasVisible" };
    return { page: v.page, id: v.id, ok: true, wasVisible: v.wasVisible };
  }
  if (v.ok !== false) return { bad: "ok" };
  if (v.failed !== "step" && v.failed !== "obs") return { bad: "failed" };
  if (!isShortText(v.error, RELAY_LIMITS.error) || v.error === "") return { bad: "error" };
  return { page: v.page, id: v.id, ok: false, failed: v.failed, error: v.error };
}

/** A step order as the page reads it: an id and one of the four steps, or why it is refused. */
export function parseRelayOrder(text: string): RelayOrder | { refused: string; id: string | null } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { refused: "not JSON", id: null };
  }
  const v = asObject(value);
  const id = isId(v?.id) ? (v?.id as string) : null;
  if (!v || !id) return { refused: "no id", id: null };
  const step = parseObsStep(v.step);
  return step ? { id, step } : { refused: RELAY_REFUSAL, id };
}

/** What the page answers to anything but one of the four OBS steps. */
export const RELAY_REFUSAL = "The overlay page carries out OBS steps only (scene, source, text, media).";

/** The settings as the page reads them, or null (anything else is ignored). */
export function parseRelaySettings(text: string): RelaySettings | null {
  try {
    const v = asObject(JSON.parse(text));
    if (v?.enabled === false) return { enabled: false };
    if (v?.enabled !== true || typeof v.url !== "string" || !/^wss?:\/\//.test(v.url)) return null;
    if (v.password !== null && typeof v.password !== "string") return null;
    return { enabled: true, url: v.url, password: v.password };
  } catch {
    return null;
  }
}
