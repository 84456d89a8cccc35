import { ChatBotDataError } from "../../db/chat-bot-rules.ts";
import { ApiError, badRequest } from "../core/errors.ts";
import { ORIGIN_NOTE, PANEL_SECURITY } from "../http/panel-auth.ts";

/**
 * What the panel routes of a channel's own chat-bot data (custom commands, quotes, timers, regulars;
 * issue 24) share: reading a JSON body field by field, each refusal naming its field, and the store's
 * refusals (ChatBotDataError) in the contract's error shape. The field is named in the message and,
 * for the dashboard to put the message beside its input, in the `X-Cuebot-Field` header.
 */

export type JsonObject = Record<string, unknown>;

/** Where a field came from, as the message names it. */
export type FieldPlace = "body field" | "query parameter" | "path parameter";

/** The header that names the field at fault on every refusal of these routes. */
export const FIELD_HEADER = "X-Cuebot-Field";

const STATUS_OF = { invalid_input: 400, duplicate: 409, limit_reached: 409 } as const;
const CODE_OF = { invalid_input: "bad_request", duplicate: "already_exists", limit_reached: "limit_reached" };

/** A refusal of one field: 400 `bad_request`, the field named in words and in the header. */
export function fieldError(place: FieldPlace, field: string, message: string): ApiError {
  return new ApiError(400, "bad_request", `The ${place} "${field}" ${message}`, { [FIELD_HEADER]: field });
}

/**
 * The store's refusal as the contract's error: an invalid value is a 400 naming its field, a taken
 * name or a full list a 409 whose message already says which.
 */
export function storeRefusal(error: ChatBotDataError, place: FieldPlace = "body field"): ApiError {
  const message =
    error.code === "invalid_input"
      ? `The ${place} "${error.field}" is not accepted: ${error.message}`
      : error.message;
  return new ApiError(STATUS_OF[error.code], CODE_OF[error.code], message, { [FIELD_HEADER]: error.field });
}

/** Runs a store call, turning its refusals into the contract's errors; `placeOf` says where a field came from. */
export async function refusalsAnswered<T>(
  work: () => Promise<T>,
  placeOf: (field: string) => FieldPlace = () => "body field",
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ChatBotDataError) throw storeRefusal(error, placeOf(error.field));
    throw error;
  }
}

/**
 * The body as a JSON object holding only `fields`; `example` shows what one looks like. Unknown
 * fields are refused rather than ignored, so a typo never looks like a saved change.
 */
export function bodyObject(body: unknown, fields: readonly string[], example: string): JsonObject {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest(`The body must be a JSON object like ${example}.`);
  }
  const unknown = Object.keys(body).find((key) => !fields.includes(key));
  if (unknown !== undefined) {
    const shown = unknown.length <= 40 ? `"${unknown}"` : "with a long name";
    throw new ApiError(
      400,
      "bad_request",
      `Unknown body field ${shown}; the fields are ${fields.map((f) => `"${f}"`).join(", ")}.`,
      { [FIELD_HEADER]: unknown.slice(0, 40) },
    );
  }
  return body as JsonObject;
}

/** A text field; undefined when absent (or refused when `required`). */
export function textField(body: JsonObject, field: string, required: true): string;
export function textField(body: JsonObject, field: string, required?: false): string | undefined;
export function textField(body: JsonObject, field: string, required = false): string | undefined {
  const value = body[field];
  if (value === undefined) {
    if (required) throw fieldError("body field", field, "is missing.");
    return undefined;
  }
  if (typeof value !== "string") throw fieldError("body field", field, "must be a string.");
  return value;
}

/** A text field that null clears; undefined when absent. */
export function nullableTextField(body: JsonObject, field: string): string | null | undefined {
  return body[field] === null ? null : textField(body, field);
}

/** A whole-number field; undefined when absent (or refused when `required`). The store checks its range. */
export function integerField(body: JsonObject, field: string, required = false): number | undefined {
  const value = body[field];
  if (value === undefined) {
    if (required) throw fieldError("body field", field, "is missing.");
    return undefined;
  }
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw fieldError("body field", field, "must be a whole number.");
  }
  return value;
}

export function booleanField(body: JsonObject, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") throw fieldError("body field", field, "must be true or false.");
  return value;
}

/** A row number in a path (a quote's number, a timer's id): digits only, or a 400 naming the parameter. */
export function rowNumberParam(raw: string, field: string): number {
  if (!/^[0-9]{1,10}$/.test(raw)) throw fieldError("path parameter", field, "must be a whole number.");
  return Number(raw);
}

/** A query parameter's whole number; undefined when absent. */
export function integerQuery(raw: string | undefined, field: string): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!/^[0-9]{1,10}$/.test(raw)) throw fieldError("query parameter", field, "must be a whole number.");
  return Number(raw);
}

/** How these routes describe themselves on /docs: the panel's session and Origin rule. */
export function panelDetail(summary: string, description?: string) {
  return {
    summary,
    tags: ["panel"],
    security: PANEL_SECURITY,
    description: description ? `${description}\n\n${ORIGIN_NOTE}` : ORIGIN_NOTE,
  };
}
