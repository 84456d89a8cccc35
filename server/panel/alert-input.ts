import { AlertDataError } from "../../db/alert-rules.ts";
import { ALERT_TYPES, type AlertType, parseAlertType } from "../../db/schema-enums.ts";
import { ApiError } from "../core/errors.ts";
import { FIELD_HEADER, type FieldPlace, fieldError, type JsonObject, textField } from "./chat-bot-input.ts";

/**
 * What the dashboard's alert routes (alerts*.ts, alert-*.ts) share on top of chat-bot-input.ts: an
 * alert type named in a path or a body, and the store's refusals (AlertDataError) in the contract's
 * error shape, the field named in the message and in `X-Cuebot-Field`.
 */

const TYPE_LIST = ALERT_TYPES.join(", ");

/** An alert type from the path (`/alerts/types/cheer`) or a body field; a 400 naming where otherwise. */
export function alertTypeOf(raw: string, place: FieldPlace, field = "type"): AlertType {
  const type = parseAlertType(raw);
  if (type === null) throw fieldError(place, field, `must be one of ${TYPE_LIST}.`);
  return type;
}

/** The body's `type` field, required. */
export function alertTypeField(body: JsonObject): AlertType {
  return alertTypeOf(textField(body, "type", true), "body field");
}

const STATUS_OF = { invalid_input: 400, too_large: 413, limit_reached: 409 } as const;
const CODE_OF = {
  invalid_input: "bad_request",
  too_large: "payload_too_large",
  limit_reached: "limit_reached",
};

/** How a route names the store's fields: `rename` maps them to its own, `place` says where they came from. */
export interface RefusalNaming {
  rename?: Readonly<Record<string, string>>;
  place?: FieldPlace | "upload";
}

/**
 * The store's refusal as the contract's error: an invalid value a 400 naming its field, a file over
 * the cap a 413, a full list a 409. `rename` maps the store's field names to the route's (an upload's
 * `bytes` is the dashboard's `file`).
 */
export function alertRefusal(error: AlertDataError, naming: RefusalNaming = {}): ApiError {
  const field = naming.rename?.[error.field] ?? error.field;
  const place = naming.place ?? "body field";
  const message =
    error.code === "invalid_input"
      ? `The ${place} "${field}" is not accepted: ${error.message}`
      : error.message;
  return new ApiError(STATUS_OF[error.code], CODE_OF[error.code], message, { [FIELD_HEADER]: field });
}

/** Runs a store call, turning its refusals into the contract's errors. */
export async function alertRefusalsAnswered<T>(
  work: () => Promise<T>,
  naming: RefusalNaming = {},
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AlertDataError) throw alertRefusal(error, naming);
    throw error;
  }
}
