import { echoable } from "../core/chat-echo.ts";
import { isUnreplacedTemplate } from "../core/chat-text.ts";
import { ApiError, badRequest } from "../core/errors.ts";
import { REGIONS, type Region } from "./client.ts";
import type { GameType } from "./format.ts";

/**
 * Which player a game lookup is about, read from what a chat user typed: the game API's path
 * (server/game/routes.ts) and a game command's stored player (server/bot/game-commands.ts) both
 * come through here, so both refuse a bad one in the same words.
 */

export interface PlayerQuery {
  region: Region;
  name: string;
  tag: string;
}

const NAME_LENGTH = { min: 3, max: 16 } as const;
const TAG_LENGTH = { min: 3, max: 5 } as const;

/** A UTF-16 surrogate: half of a character outside the Basic Multilingual Plane (an emoji). */
const SURROGATE = /[\uD800-\uDFFF]/;

/** Riot IDs count characters, not bytes or UTF-16 units: a Korean syllable or an emoji is one. */
function length(value: string): number {
  return SURROGATE.test(value) ? [...value].length : value.length;
}

/** A path segment: null when it was not valid URL encoding. */
export type Segment = string | null | undefined;

/** Empty values and unreplaced bot templates (`$(1)`, `${2}`) mean the bot had nothing to send. */
function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed || isUnreplacedTemplate(trimmed)) return undefined;
  return trimmed;
}

/** User input echoed in a message only when login-shaped: a reply never repeats a chatter's sentence. */
function quoted(value: string): string | null {
  const shown = echoable(value);
  return shown === null ? null : `"${shown}"`;
}

function required(what: "region" | "name" | "tag", value: Segment, endpoint: string): string {
  if (value === null) throw badRequest(`The path parameter "${what}" is not valid URL encoding.`);
  const given = present(value);
  if (given === undefined) {
    throw badRequest(
      `The path parameter "${what}" is missing: use /api/game/${endpoint}/<region>/<name>/<tag>.`,
    );
  }
  return given;
}

function checkLength(what: "name" | "tag", value: string, limits: { min: number; max: number }): string {
  const n = length(value);
  if (n < limits.min || n > limits.max) {
    throw badRequest(
      `The path parameter "${what}" must be ${limits.min} to ${limits.max} characters long; ${quoted(value) ?? "the one given"} has ${n}.`,
    );
  }
  return value;
}

/**
 * Region, name and tag as a chat user typed them (the provider matches names case-insensitively).
 * Validated here rather than by a route schema so every bad input gets a sentence naming the
 * parameter; Elysia hands a malformed %-escape over as null.
 */
export function parsePlayer(
  region: Segment,
  name: Segment,
  tag: Segment,
  endpoint = "<endpoint>",
): PlayerQuery {
  const givenRegion = required("region", region, endpoint);
  const lower = givenRegion.toLowerCase();
  if (!(REGIONS as readonly string[]).includes(lower)) {
    throw new ApiError(
      400,
      "invalid_region",
      `${quoted(givenRegion) ?? "That"} is not a game region; use one of ${REGIONS.join(", ")}.`,
    );
  }
  return {
    region: lower as Region,
    name: checkLength("name", required("name", name, endpoint), NAME_LENGTH),
    tag: checkLength("tag", required("tag", tag, endpoint), TAG_LENGTH),
  };
}

/** The game API's `type` (how much its chat line says): 1, 2 or 3, or undefined when not given. */
export function parseType(raw: string | undefined): GameType | undefined {
  const given = present(raw);
  if (given === undefined) return undefined;
  if (given === "1" || given === "2" || given === "3") return Number(given) as GameType;
  const shown = quoted(given);
  throw badRequest(`The query parameter "type" must be 1, 2 or 3${shown ? `, not ${shown}` : ""}.`);
}
