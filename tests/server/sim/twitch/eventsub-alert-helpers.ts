import { startTwitchSimulator, type TwitchSimulator } from "../../../../server/sim/twitch/server.ts";
import { SIM_IDS } from "../../../../server/sim/twitch/world.ts";
import { waitFor } from "../../../helpers/chat.ts";
import { callHelix } from "../../../helpers/helix.ts";

/** The alert tests' simulator, sockets and calls: raw WebSocket clients and raw HTTP, as Twitch's docs. */

export interface Frame {
  metadata: Record<string, string>;
  payload: { subscription?: { type: string; status: string }; event?: Record<string, unknown> } & Record<
    string,
    unknown
  >;
}

/** Every scope the alert types need. */
export const ALERT_SCOPES = [
  "moderator:read:followers",
  "channel:read:subscriptions",
  "bits:read",
  "channel:read:redemptions",
];

export function alertHarness() {
  const sim: TwitchSimulator = startTwitchSimulator();
  const sockets: WebSocket[] = [];

  /** A socket recording its frames, once welcomed: its session id. */
  async function connect() {
    const ws = new WebSocket(sim.eventsubUrl);
    sockets.push(ws);
    const frames: Frame[] = [];
    ws.onmessage = (m) => frames.push(JSON.parse(String(m.data)) as Frame);
    const welcome = await waitFor(() => frames.find((f) => f.metadata.message_type === "session_welcome"));
    const sessionId = (welcome!.payload.session as { id: string }).id;
    const notifications = () => frames.filter((f) => f.metadata.message_type === "notification");
    return { sessionId, frames, notifications };
  }

  const token = (login: string, scopes = ALERT_SCOPES) => sim.issueUserToken(login, scopes).accessToken;

  const subscribe = (
    accessToken: string,
    sessionId: string,
    type: string,
    condition: Record<string, unknown> = { broadcaster_user_id: SIM_IDS.demo },
    version = type === "channel.follow" ? "2" : "1",
  ) =>
    callHelix<{
      data: { cost: number; condition: Record<string, string> }[];
      total_cost: number;
      message?: string;
    }>(sim, accessToken, "POST", "/eventsub/subscriptions", {
      body: { type, version, condition, transport: { method: "websocket", session_id: sessionId } },
    });

  /** A `/_sim/eventsub/*` control over HTTP. */
  async function control<T = Record<string, unknown>>(action: string, body: object) {
    const res = await fetch(`${sim.authUrl}/_sim/eventsub/${action}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  async function stop() {
    for (const ws of sockets.splice(0)) ws.close();
    await sim.stop();
  }

  return { sim, connect, token, subscribe, control, stop };
}

export type AlertHarness = ReturnType<typeof alertHarness>;
