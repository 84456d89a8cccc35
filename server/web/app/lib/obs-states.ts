// What the dashboard says of the OBS connection's state (the OBS, Actions and Deck views).
import type { ObsState } from "../../../vocabulary.ts";

export const OBS_STATE_TEXT: Readonly<Record<ObsState, string>> = {
  off: "Off",
  connecting: "Connecting…",
  connected: "Connected",
  auth_failed: "Wrong password",
  unreachable: "Can't reach OBS",
  error: "Error",
};

/** The badge's class: connected reads as good, the failures as bad, the rest plain. */
export function obsBadgeClass(state: ObsState): string {
  if (state === "connected") return "badge chat-connected";
  return state === "off" || state === "connecting" ? "badge" : "badge chat-error";
}
