import { setAlertsEnabled, writeAlertSettings } from "../../db/alerts.ts";
import { writeChatEnabled } from "../../db/chat.ts";
import type { Alert, AlertSettings, AlertType } from "../../server/alerts/model.ts";
import { saveProviderTokens } from "../../server/identity/provider-tokens.ts";
import { STREAM_OFFLINE, STREAM_ONLINE } from "../../server/live/stream-state.ts";
import { startLive } from "../../server/live-runtime.ts";
import { AlertFeed } from "../../server/overlay/alert-hub.ts";
import type { Context } from "../../server/runtime.ts";
import { SIM_IDS } from "../../server/sim/twitch/world.ts";
import { ALERT_EXTRA_SCOPES, BASE_SCOPES, READ_CHAT_SCOPE } from "../../server/twitch/scopes.ts";
import { CHAT_SECOND_MS, type ChatHarness, startChatHarness, waitFor } from "./chat.ts";

/** Every scope alerts use, beside what login asks and reading chat. */
export const ALERT_SCOPES = [...BASE_SCOPES, READ_CHAT_SCOPE, ...ALERT_EXTRA_SCOPES];

/** What one overlay listening on a context's alert hub was handed, in order. */
export interface OverlayRecorder {
  alerts: Alert[];
  stop(): void;
}

/** Listens on the context's alerts as an overlay does (one AlertFeed). */
export function recordOverlay(ctx: Context, accountId: number): OverlayRecorder {
  const alerts: Alert[] = [];
  const stop = ctx.alerts.subscribe(accountId, new AlertFeed((alert) => alerts.push(alert)));
  return { alerts, stop };
}

export interface EmitResult {
  delivered: number;
  notifications: { type: string; event: Record<string, unknown>; message_ids: string[] }[];
}

export interface AlertsHarness extends ChatHarness {
  /** Gives the streamer a token with `scopes`, turns alerts on (and native chat when `chat`). */
  grant(options?: { scopes?: readonly string[]; chat?: boolean }): Promise<void>;
  /** Starts native chat and alerts beside it, as `serve` does. */
  serve(): void;
  /** Whether the alerts of cuebotdemo are connected with every type subscribed that may be. */
  alertsConnected(ms?: number): Promise<boolean>;
  /** `POST /_sim/eventsub/emit` for cuebotdemo's channel. */
  emit(type: string, overrides?: Record<string, unknown>): Promise<EmitResult>;
  /** `POST /_sim/eventsub/<action>` with a JSON body. */
  control(action: string, body: Record<string, unknown>): Promise<Response>;
  settings(type: AlertType, changes: Partial<AlertSettings>): Promise<void>;
}

export async function startAlertsHarness(): Promise<AlertsHarness> {
  const h = await startChatHarness();
  const control = (action: string, body: Record<string, unknown>) =>
    fetch(`${h.sim.authUrl}/_sim/eventsub/${action}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  let stopServe: (() => Promise<void>) | null = null;
  return {
    ...h,
    control,
    async grant(options = {}) {
      const scopes = [...(options.scopes ?? ALERT_SCOPES)];
      const issued = h.sim.issueUserToken("cuebotdemo", scopes);
      await saveProviderTokens(h.ctx, h.account.id, { ...issued, scopes, expiresIn: 14_400 });
      await setAlertsEnabled(h.ctx.db, h.account.id, true, Date.now());
      if (options.chat) await writeChatEnabled(h.ctx.db, h.account.id, true, Date.now());
    },
    serve() {
      const runtime = startLive(h.ctx, { secondMs: CHAT_SECOND_MS });
      stopServe = () => runtime.close();
    },
    async alertsConnected(ms = 10_000) {
      // The stream's online/offline subscriptions are a feed of their own on the same socket: a test
      // that goes live right after would otherwise race them.
      const streamHeard = () => {
        const enabled = h.sim.chat
          .subscriptions()
          .filter((s) => s.status === "enabled" && s.condition.broadcaster_user_id === SIM_IDS.demo);
        return [STREAM_ONLINE, STREAM_OFFLINE].every((type) => enabled.some((s) => s.type === type));
      };
      const ok = await waitFor(async () => {
        const status = await h.ctx.alertsStatus.status(h.account.id);
        return (
          status.state === "connected" && status.types.every((t) => t.state !== "connecting") && streamHeard()
        );
      }, ms);
      return ok === true;
    },
    async emit(type, overrides = {}) {
      const res = await control("emit", { type, broadcaster_user_id: SIM_IDS.demo, ...overrides });
      if (res.status !== 200) throw new Error(`emit ${type}: ${res.status} ${await res.text()}`);
      return (await res.json()) as EmitResult;
    },
    async settings(type, changes) {
      await writeAlertSettings(h.ctx.db, h.account.id, type, changes, Date.now());
    },
    async stop() {
      await stopServe?.();
      await h.stop();
    },
  };
}

/** A second EventSub socket of the streamer (an earlier process's, say): its welcome's session id. */
export async function otherSession(h: ChatHarness): Promise<{ id: string; socket: WebSocket }> {
  const socket = new WebSocket(h.ctx.config.twitch.eventsubUrl);
  const id = await new Promise<string>((resolve, reject) => {
    socket.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as { payload?: { session?: { id?: string } } };
      if (frame.payload?.session?.id) resolve(frame.payload.session.id);
    };
    socket.onerror = () => reject(new Error("no welcome"));
  });
  return { id, socket };
}
