import {
  EventSubscription,
  type OBSRequestTypes,
  type OBSResponseTypes,
  OBSWebSocket,
  OBSWebSocketError,
} from "obs-websocket-js/json";
import type { ObsSeen } from "../../db/obs.ts";
import { OBS_REASONS, type ObsOutcome, outcomeOf } from "./reasons.ts";
import { listedNames, OBS_LIST_EVENTS } from "./steps.ts";

/**
 * One account's connection to OBS Studio over obs-websocket 5 (CONTRACT §6 "Actions";
 * reference/obs.md), through the maintained client (obs-websocket-js, its JSON build: the default
 * import is msgpack). It connects, keeps OBS's scene and input names fresh from OBS's events (and
 * reads them again with each probe), asks OBS for its version every few seconds (obs-websocket has
 * no heartbeat, and a half-open socket never closes by itself), and reconnects: quickly while OBS is unreachable, once a minute after a
 * wrong password, never after OBS kicked it (until the settings are saved again).
 */

export interface ObsTarget {
  url: string;
  /** null: OBS without authentication. */
  password: string | null;
}

export interface ObsTimings {
  /** Between two liveness probes while connected. */
  probeMs: number;
  /** A probe or a handshake not answered within this is a lost connection. */
  answerMs: number;
  /** Waits between attempts while OBS is unreachable, the last one repeated. */
  backoffMs: readonly number[];
  /** Wait after a wrong password. */
  authRetryMs: number;
}

/** Lost noticed within probeMs + answerMs (10 s ≤ 15 s); reachable again within 5 s + handshake. */
export const OBS_TIMINGS: ObsTimings = {
  probeMs: 5_000,
  answerMs: 5_000,
  backoffMs: [500, 1_000, 2_000, 4_000, 5_000],
  authRetryMs: 60_000,
};

/** The events cuebot reads: OBS quitting, scene collections, scenes and inputs (reference/obs.md §2.5). */
const SUBSCRIPTIONS =
  EventSubscription.General | EventSubscription.Config | EventSubscription.Scenes | EventSubscription.Inputs;

/** obs-websocket's close code for "Kick" in OBS's session list: "you must not automatically reconnect". */
const KICKED = 4011;

export type ObsRequestType = keyof OBSRequestTypes;

/** A request refused because OBS is not connected; the message says why (the state's reason). */
export class ObsNotConnected extends Error {}

export interface ObsWatcher {
  now(): number;
  /** The state, version or names changed. */
  changed(seen: ObsSeen): void;
}

/** OBS did not answer a request (or the handshake) in time. */
export class ObsTimedOut extends Error {}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ObsTimedOut(`OBS did not answer within ${ms / 1000} s.`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export class ObsConnection {
  #socket: OBSWebSocket | null = null;
  #seen: ObsSeen;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Attempts since the last success, for the backoff. */
  #failures = 0;
  /** Bumped at each attempt and at close: callbacks of an older one do nothing. */
  #generation = 0;
  #closed = false;
  /** Reads of the names started, so an older answer never overwrites a newer one. */
  #refreshes = 0;
  /** The requests waiting for OBS's answer: refused at once when the connection drops. */
  readonly #waiting = new Set<(error: Error) => void>();

  constructor(
    readonly target: ObsTarget,
    private readonly watcher: ObsWatcher,
    private readonly timings: ObsTimings = OBS_TIMINGS,
  ) {
    this.#seen = {
      ...this.#blank({ state: "connecting", reason: OBS_REASONS.connecting(target.url) }),
      since: null,
    };
  }

  start(): void {
    this.#seen = { ...this.#seen, since: this.watcher.now() };
    this.watcher.changed(this.#seen);
    void this.#attempt();
  }

  status(): ObsSeen {
    return this.#seen;
  }

  /** Kicked by OBS: it tries no more until opened again (its settings saved again). */
  gaveUp(): boolean {
    return this.#seen.reason === OBS_REASONS.kicked;
  }

  /** Sends one request to OBS; refused with the state's reason when not connected. */
  call<T extends ObsRequestType>(type: T, data?: OBSRequestTypes[T]): Promise<OBSResponseTypes[T]> {
    const socket = this.#socket;
    if (this.#seen.state !== "connected" || socket === null) {
      return Promise.reject(new ObsNotConnected(`OBS is not connected: ${this.#seen.reason ?? "it is off"}`));
    }
    return new Promise((resolve, reject) => {
      this.#waiting.add(reject);
      within(socket.call(type, data), this.timings.answerMs)
        .then(resolve, reject)
        .finally(() => this.#waiting.delete(reject));
    });
  }

  /** Disconnects and stops trying; the state is left to whoever closes it. */
  close(): void {
    this.#closed = true;
    this.#generation++;
    this.#clearTimer();
    this.#drop();
  }

  async #attempt(): Promise<void> {
    const generation = ++this.#generation;
    const socket = new OBSWebSocket();
    this.#socket = socket;
    const { url, password } = this.target;
    try {
      await within(
        socket.connect(url, password ?? undefined, { eventSubscriptions: SUBSCRIPTIONS }),
        this.timings.answerMs,
      );
      if (generation !== this.#generation) return;
      await this.#identified(socket, generation);
    } catch (error) {
      if (generation === this.#generation) this.#failed(error);
    }
  }

  async #identified(socket: OBSWebSocket, generation: number): Promise<void> {
    socket.on("ConnectionClosed", (error) => this.#closedBy(error.code, generation));
    for (const event of OBS_LIST_EVENTS) socket.on(event, () => void this.#refresh(socket, generation));
    const version = await within(socket.call("GetVersion"), this.timings.answerMs);
    const lists = await this.#lists(socket);
    if (generation !== this.#generation) return;
    this.#failures = 0;
    this.#set({ state: "connected", reason: null, obsVersion: version.obsVersion, ...lists });
    this.#probeLater(socket, generation);
  }

  /** Scene names as OBS's Scenes dock lists them (top first), and every input's name. */
  async #lists(socket: OBSWebSocket): Promise<{ scenes: string[]; sources: string[] }> {
    const [sceneList, inputList] = await Promise.all([
      within(socket.call("GetSceneList"), this.timings.answerMs),
      within(socket.call("GetInputList"), this.timings.answerMs),
    ]);
    return listedNames(sceneList, inputList);
  }

  async #refresh(socket: OBSWebSocket, generation: number): Promise<void> {
    const asked = ++this.#refreshes;
    try {
      const lists = await this.#lists(socket);
      // Only the latest read counts: OBS may answer two reads out of order.
      if (asked === this.#refreshes && generation === this.#generation && this.#seen.state === "connected") {
        const { since: _, ...seen } = this.#seen;
        this.#set({ ...seen, ...lists });
      }
    } catch {
      // The probe notices a connection that stopped answering.
    }
  }

  #probeLater(socket: OBSWebSocket, generation: number): void {
    this.#later(this.timings.probeMs, async () => {
      try {
        await within(socket.call("GetVersion"), this.timings.answerMs);
        if (generation !== this.#generation) return;
        // The names are read again too: an event OBS sent before its lists changed is caught up here.
        void this.#refresh(socket, generation);
        this.#probeLater(socket, generation);
      } catch {
        this.#lost(generation);
      }
    });
  }

  /** OBS closed a live connection: kicked from its session list stays off (OBS asks so), else reconnect. */
  #closedBy(code: number, generation: number): void {
    if (code !== KICKED) {
      this.#lost(generation);
      return;
    }
    if (generation !== this.#generation || this.#closed) return;
    this.#generation++;
    this.#drop();
    this.#set(this.#blank({ state: "error", reason: OBS_REASONS.kicked }));
  }

  #lost(generation: number): void {
    if (generation !== this.#generation || this.#closed) return;
    this.#generation++;
    this.#drop();
    this.#set(this.#blank({ state: "connecting", reason: OBS_REASONS.reconnecting }));
    void this.#attempt();
  }

  #failed(error: unknown): void {
    this.#drop();
    const outcome = this.#outcome(error);
    this.#set(this.#blank(outcome));
    if (outcome.reason === OBS_REASONS.kicked) return;
    const { backoffMs, authRetryMs } = this.timings;
    const wait =
      outcome.state === "auth_failed"
        ? authRetryMs
        : (backoffMs[Math.min(this.#failures, backoffMs.length - 1)] ?? authRetryMs);
    this.#failures++;
    this.#later(wait, () => this.#attempt());
  }

  #outcome(error: unknown): ObsOutcome {
    const { url, password } = this.target;
    if (error instanceof ObsTimedOut) return { state: "unreachable", reason: OBS_REASONS.timedOut(url) };
    if (error instanceof OBSWebSocketError)
      return outcomeOf(error.code, error.message, url, password !== null);
    return { state: "error", reason: `OBS at ${url}: ${(error as Error).message}` };
  }

  #blank(outcome: ObsOutcome): Omit<ObsSeen, "since"> {
    return { ...outcome, obsVersion: null, scenes: [], sources: [] };
  }

  /** Records a change; `since` moves only when the state does. */
  #set(next: Omit<ObsSeen, "since">): void {
    const before = this.#seen;
    const since = before.state === next.state && before.since !== null ? before.since : this.watcher.now();
    const seen = { ...next, since };
    if (JSON.stringify(seen) === JSON.stringify(before)) return;
    this.#seen = seen;
    if (!this.#closed) this.watcher.changed(seen);
  }

  #drop(): void {
    // obs-websocket-js leaves a request unanswered when its socket closes: refused here, not after answerMs.
    const lost = new ObsNotConnected(`OBS is not connected: ${OBS_REASONS.reconnecting}`);
    for (const reject of this.#waiting) reject(lost);
    this.#waiting.clear();
    const socket = this.#socket;
    this.#socket = null;
    if (!socket) return;
    socket.removeAllListeners();
    socket.disconnect().catch(() => {});
  }

  #later(ms: number, work: () => unknown): void {
    this.#clearTimer();
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (!this.#closed) void work();
    }, ms);
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
