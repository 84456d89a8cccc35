// What the dashboard says of a live connection's state (native chat, alerts and each alert type).
import type { ConnectionState } from "../../../vocabulary.ts";

export const STATE_TEXT: Readonly<Record<ConnectionState, string>> = {
  off: "Off",
  needs_consent: "Needs your permission",
  connecting: "Connecting…",
  connected: "Connected",
  error: "Error",
};
