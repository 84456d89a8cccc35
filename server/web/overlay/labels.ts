// What the overlay writes above each alert, by type. Keyed by the vocabulary's alert types, so a new
// type does not compile until it has its label here (and in the dashboard's TYPE_FACTS).
import type { AlertType } from "../../vocabulary.ts";

export const ALERT_LABELS: Readonly<Record<AlertType, string>> = {
  follow: "New follower",
  subscribe: "New subscriber",
  resub: "Resub",
  gift: "Gifted subs",
  cheer: "Cheer",
  raid: "Raid",
  redemption: "Channel points",
};

/** By name as the stream sends it (a Map: "constructor" is no type). */
const BY_NAME: ReadonlyMap<string, string> = new Map(Object.entries(ALERT_LABELS));

/** The label of a type as the stream names it; a type this page does not know (a newer server) is "Alert". */
export function labelOf(type: string): { label: string; known: boolean } {
  const label = BY_NAME.get(type);
  return label === undefined ? { label: "Alert", known: false } : { label, known: true };
}
