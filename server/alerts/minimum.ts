/**
 * A type's minimum (AlertSettings.minAmount): a cheer's bits, a raid's viewers and a gift's subs must
 * reach it to be shown (the event is kept in the history either way); 0 lets any amount through, and
 * the other types have no minimum.
 */
import type { AlertFields, AlertType } from "./model.ts";

const WITH_MINIMUM: ReadonlySet<AlertType> = new Set<AlertType>(["cheer", "raid", "gift"]);

/** Whether `type` takes a minimum at all (the settings form shows the field only for these). */
export function hasMinimum(type: AlertType): boolean {
  return WITH_MINIMUM.has(type);
}

/**
 * Whether the alert reaches its type's minimum. A minimum that is not a positive number is none; an
 * amount Twitch did not send (null) passes only when there is no minimum, since it cannot be shown to
 * reach one.
 */
export function passesMinimum(type: AlertType, fields: AlertFields, minAmount: number): boolean {
  if (!hasMinimum(type) || !(minAmount > 0)) return true;
  return fields.amount !== null && fields.amount >= minAmount;
}
