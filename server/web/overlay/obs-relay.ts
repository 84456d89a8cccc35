// The overlay relay's page side (`via: overlay`): this page, open in OBS on the streamer's machine,
// connects to OBS's obs-websocket itself (obs-websocket-js's JSON build) with the settings cuebot sends
// down the alert stream, reports what it sees back every few seconds, and carries out the OBS steps
// cuebot sends, as obs/steps.ts words and runs them on the server's own connection, and nothing else.
import { EventSubscription, OBSWebSocket, OBSWebSocketError } from "obs-websocket-js/json";
import {
  parseRelayOrder,
  parseRelaySettings,
  RELAY_EVENTS,
  RELAY_HEARTBEAT_MS,
  RELAY_LIMITS,
  RELAY_PATHS,
  RELAY_REFUSAL,
  type RelayAnswer,
  type RelayPageState,
  type RelayReport,
  type RelaySettings,
} from "../../obs/relay-protocol.ts";
import { carryOutObsStep, listedNames, OBS_LIST_EVENTS, ObsStepFailed } from "../../obs/steps.ts";

const SUBSCRIPTIONS =
  EventSubscription.General | EventSubscription.Config | EventSubscription.Scenes | EventSubscription.Inputs;

/** A handshake or request not answered within this is a lost OBS. */
const ANSWER_MS = 5_000;
/** Waits while OBS is unreachable (the last repeated), after a wrong password, and never after a kick. */
const BACKOFF_MS = [1_000, 2_000, 4_000, 5_000];
const AUTH_RETRY_MS = 60_000;
const WRONG_PASSWORD = 4009;
const NOT_V5 = 4010;
const KICKED = 4011;
/** A report stays under the server's body cap (64 KiB). */
const REPORT_BYTES = 60_000;

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`OBS did not answer within ${ms / 1000} s.`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const codeOf = (error: unknown) => (error instanceof OBSWebSocketError ? error.code : -1);

/** The names as they fit a report: each list bounded, names too long for it left out. */
function bounded(names: string[]): string[] {
  return names.filter((name) => name.length <= RELAY_LIMITS.name).slice(0, RELAY_LIMITS.names);
}

function stateAfter(code: number): RelayPageState {
  if (code === WRONG_PASSWORD) return "auth_failed";
  return code === NOT_V5 || code === KICKED ? "error" : "unreachable";
}

/** Where the page sends what it has to say (POST with its overlay token). */
export type RelayPost = (path: string, body: unknown) => Promise<void>;

// Plain `private` members, not `#`: OBS's browser source may be an older Chromium than the dashboard's.
export class ObsRelayPage {
  private settings: RelaySettings = { enabled: false };
  private socket: OBSWebSocket | null = null;
  private view: Omit<RelayReport, "page"> = {
    state: "connecting",
    obsVersion: null,
    scenes: [],
    sources: [],
    code: null,
  };
  /** Bumped at each attempt and at each settings change: an older attempt's callbacks do nothing. */
  private generation = 0;
  private failures = 0;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly page: string,
    private readonly post: RelayPost,
  ) {}

  /**
   * The `obs` event: connect to OBS as it says, or let go. The same settings again (a stream reopened,
   * or saved again): report now, and try again if OBS kicked this page (OBS asks that only a save does).
   */
  settingsHeard(text: string): void {
    const next = parseRelaySettings(text);
    if (!next) return;
    const kicked = this.view.code === KICKED;
    if (JSON.stringify(next) === JSON.stringify(this.settings) && !kicked) {
      if (next.enabled) this.report();
      return;
    }
    this.settings = next;
    this.stop();
    if (!next.enabled) return;
    this.heartbeat = setInterval(() => this.heartbeatDue(), RELAY_HEARTBEAT_MS);
    void this.attempt();
  }

  /** The `obs-step` event: one of the four OBS steps, carried out and answered; anything else refused. */
  async stepHeard(text: string): Promise<void> {
    const order = parseRelayOrder(text);
    if ("refused" in order) {
      if (order.id)
        await this.answer({ page: this.page, id: order.id, ok: false, failed: "obs", error: RELAY_REFUSAL });
      return;
    }
    const { id, step } = order;
    try {
      const socket = this.connectedSocket();
      const done = await carryOutObsStep(
        {
          call: (type, data) => within(socket.call(type as "GetVersion", data as never), ANSWER_MS),
          scenes: () => this.view.scenes,
        },
        step,
      );
      await this.answer({ page: this.page, id, ok: true, wasVisible: done.wasVisible ?? null });
    } catch (error) {
      const failed = error instanceof ObsStepFailed ? "step" : "obs";
      const message = String((error as Error).message || error).slice(0, RELAY_LIMITS.error) || "failed";
      await this.answer({ page: this.page, id, ok: false, failed, error: message });
    }
  }

  private connectedSocket(): OBSWebSocket {
    if (this.view.state !== "connected" || !this.socket)
      throw new Error("the overlay page is not connected to OBS.");
    return this.socket;
  }

  private answer(answer: RelayAnswer): Promise<void> {
    return this.post(RELAY_PATHS.answer, answer).catch(() => {});
  }

  private stop(): void {
    this.generation++;
    if (this.retry) clearTimeout(this.retry);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.retry = null;
    this.heartbeat = null;
    this.drop();
    this.view = { state: "connecting", obsVersion: null, scenes: [], sources: [], code: null };
  }

  private drop(): void {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.removeAllListeners();
    socket.disconnect().catch(() => {});
  }

  private async attempt(): Promise<void> {
    if (!this.settings.enabled) return;
    const generation = ++this.generation;
    const { url, password } = this.settings;
    const socket = new OBSWebSocket();
    this.socket = socket;
    try {
      await within(
        socket.connect(url, password ?? undefined, { eventSubscriptions: SUBSCRIPTIONS }),
        ANSWER_MS,
      );
      // Kicked from OBS's session list: said, and not tried again until the settings come again.
      socket.on("ConnectionClosed", (error) => {
        if (generation !== this.generation) return;
        if (error.code === KICKED) this.failed(KICKED);
        else this.lost(generation);
      });
      for (const event of OBS_LIST_EVENTS) socket.on(event, () => void this.read(generation));
      await this.read(generation);
      this.failures = 0;
    } catch (error) {
      if (generation === this.generation) this.failed(codeOf(error));
    }
  }

  /** Reads OBS's version and names (also the liveness probe); a change is reported at once. */
  private async read(generation: number): Promise<void> {
    const socket = this.socket;
    if (!socket) return;
    const [version, sceneList, inputList] = await Promise.all([
      within(socket.call("GetVersion"), ANSWER_MS),
      within(socket.call("GetSceneList"), ANSWER_MS),
      within(socket.call("GetInputList"), ANSWER_MS),
    ]);
    if (generation !== this.generation) return;
    const { scenes, sources } = listedNames(sceneList, inputList);
    this.set({
      state: "connected",
      obsVersion: version.obsVersion,
      scenes: bounded(scenes),
      sources: bounded(sources),
      code: null,
    });
  }

  private heartbeatDue(): void {
    const generation = this.generation;
    if (this.view.state !== "connected") {
      this.report();
      return;
    }
    this.read(generation).then(
      () => this.report(),
      () => this.lost(generation),
    );
  }

  private lost(generation: number): void {
    if (generation !== this.generation) return;
    this.drop();
    this.set({ state: "connecting", obsVersion: null, scenes: [], sources: [], code: null });
    void this.attempt();
  }

  private failed(code: number): void {
    this.drop();
    const state = stateAfter(code);
    this.set({ state, obsVersion: null, scenes: [], sources: [], code });
    if (code === KICKED) return;
    const wait =
      state === "unreachable"
        ? (BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)] ?? AUTH_RETRY_MS)
        : AUTH_RETRY_MS;
    this.failures++;
    this.retry = setTimeout(() => void this.attempt(), wait);
  }

  private set(view: Omit<RelayReport, "page">): void {
    const changed = JSON.stringify(view) !== JSON.stringify(this.view);
    this.view = view;
    if (changed) this.report();
  }

  /** Sends the page's view (also the heartbeat that keeps the page counted). */
  private report(): void {
    let report: RelayReport = { page: this.page, ...this.view };
    while (new TextEncoder().encode(JSON.stringify(report)).length > REPORT_BYTES) {
      report = {
        ...report,
        scenes: report.scenes.slice(0, report.scenes.length >> 1),
        sources: report.sources.slice(0, report.sources.length >> 1),
      };
    }
    this.post(RELAY_PATHS.state, report).catch(() => {});
  }
}

/** An id for this page load (getRandomValues: randomUUID needs a secure context, an http page has none). */
export function newPageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The relay as the page runs it: answers to the alert stream's `obs` and `obs-step` events. */
export function startObsRelay(
  page: string,
  tokenQuery: string,
): Record<string, (event: MessageEvent<string>) => void> {
  const post: RelayPost = async (path, body) => {
    const answer = await fetch(`${path}?${tokenQuery}`, {
      method: "POST",
      credentials: "omit",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    // The overlay link was replaced (or the account deleted): this page lets OBS go.
    if (answer.status === 401) relay.settingsHeard(JSON.stringify({ enabled: false }));
  };
  const relay = new ObsRelayPage(page, post);
  return {
    [RELAY_EVENTS.settings]: (event) => relay.settingsHeard(event.data),
    [RELAY_EVENTS.step]: (event) => void relay.stepHeard(event.data),
  };
}
