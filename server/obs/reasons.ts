import type { ObsState } from "../vocabulary.ts";

/**
 * What a failed or lost obs-websocket connection means to a streamer: the state it puts the
 * connection in and a reason saying what to do in OBS (reference/obs.md §2.6, §7.3).
 */

export interface ObsOutcome {
  state: ObsState;
  reason: string;
}

const SETTINGS = "Tools → WebSocket Server Settings";

export const OBS_REASONS = {
  connecting: (url: string) => `Connecting to OBS at ${url}.`,
  reconnecting: "The connection to OBS was lost; reconnecting.",
  unreachable: (url: string) =>
    `OBS is not running or obs-websocket is off: ${SETTINGS} → Enable WebSocket server (cuebot tries ${url}).`,
  timedOut: (url: string) => `OBS at ${url} did not answer within a few seconds.`,
  wrongPassword: `Wrong password: OBS refused it. Copy the password from ${SETTINGS} → Show Connect Info; cuebot tries again once a minute.`,
  passwordNeeded: `OBS asks for a password: copy it from ${SETTINGS} → Show Connect Info; cuebot tries again once a minute.`,
  kicked: "OBS's WebSocket session list kicked cuebot out; save the OBS settings again to reconnect.",
  notObsWebSocket5: (url: string) =>
    `${url} does not speak obs-websocket 5 (OBS 28 or newer; obs-websocket 4.x listened on port 4444).`,
  overlay: (url: string) =>
    `No overlay page is connected: open the overlay link in OBS as a browser source (or in a browser on the PC running OBS); it connects to OBS at ${url} from there.`,
  overlayConnecting: (url: string) => `The overlay page is connecting to OBS at ${url}.`,
  overlayFailed: "The overlay page reports:",
  noOverlayPage:
    "OBS is not connected: no overlay page is connected to OBS (open the overlay link in OBS as a browser source).",
  unsendable:
    "This step cannot go to the overlay page: a scene, source or text is empty or longer than 10,000 characters.",
  overlaySilent: (seconds: number) =>
    `OBS is not connected: the overlay page did not answer within ${seconds} s (it may have been closed).`,
} as const;

/** An obs-websocket-js failure (its code: the close code, or -1 before the handshake) as a state and reason. */
export function outcomeOf(code: number, message: string, url: string, hadPassword: boolean): ObsOutcome {
  if (code === 4009)
    return {
      state: "auth_failed",
      reason: hadPassword ? OBS_REASONS.wrongPassword : OBS_REASONS.passwordNeeded,
    };
  if (code === 4011) return { state: "error", reason: OBS_REASONS.kicked };
  if (code === 4010 || /subprotocol/i.test(message))
    return { state: "error", reason: OBS_REASONS.notObsWebSocket5(url) };
  return { state: "unreachable", reason: OBS_REASONS.unreachable(url) };
}
