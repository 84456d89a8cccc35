import { isUnreplacedTemplate } from "./chat-text.ts";
import { badRequest } from "./errors.ts";

/**
 * Parameters read by hand from the text a client sent (a URL's query, or a native chat line's words
 * standing for it), so every 400 names the parameter and the allowed values (Elysia's coercion loses
 * the name when a number is out of range). Blanks and unreplaced bot variables take the fallback.
 */

export function integerParam(
  raw: string | undefined,
  name: string,
  range: { min: number; max: number; fallback: number },
): number {
  if (raw === undefined || raw.trim() === "" || isUnreplacedTemplate(raw)) return range.fallback;
  const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw badRequest(
      `The query parameter "${name}" must be a whole number from ${range.min} to ${range.max}.`,
    );
  }
  return value;
}

export function enumParam<T extends string>(
  raw: string | undefined,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  if (raw === undefined || raw.trim() === "" || isUnreplacedTemplate(raw)) return fallback;
  const value = raw.trim().toLowerCase();
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw badRequest(`The query parameter "${name}" must be one of ${allowed.join(", ")}.`);
}
