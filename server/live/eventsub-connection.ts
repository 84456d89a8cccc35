import type { Logger } from "../core/log.ts";
import { type EventSubFrame, parseFrame } from "./eventsub-message.ts";

/**
 * One EventSub WebSocket session (reference/twitch-chat.md §1): welcome, then the owner subscribes;
 * a watchdog at 1.2 × the keepalive timeout (at least 1 s of real time past it); the `session_reconnect` handover (read the old socket
 * until the new one is welcomed, never resubscribe); and the close-code policy of §1.9 — reconnect
 * with exponential backoff and jitter, or stop. Cuebot never sends anything on the socket.
 */

export type ConnectionState = "connecting" | "connected" | "backoff" | "stopped";

export interface ConnectionHandlers {
  /** A new session (not a handover): subscribe now. Throwing `StopConnection` ends the connection. */
  onWelcome(sessionId: string): Promise<void>;
  onFrame(frame: Extract<EventSubFrame, { type: "notification" | "revocation" }>): void;
  /** The connection is down and will retry (reason in words), or has stopped. */
  onDown(reason: string, willRetry: boolean): void;
}

/** Thrown by `onWelcome` when retrying cannot help (the grant is gone): the connection stops. */
export class StopConnection extends Error {}

export interface ConnectionOptions {
  url: string;
  /** One "second" of the protocol's timers, in ms (1000; tests shorten it with the simulator). */
  secondMs?: number;
  log: Logger;
  random?: () => number;
  handlers: ConnectionHandlers;
}

const KEEPALIVE_REQUEST_S = 10;
const WATCHDOG_FACTOR = 1.2;
/**
 * The watchdog's margin past the keepalive window is never under this much real time: a loaded machine's
 * event loop can be late by more than a shortened window's 20 % (40 ms when tests make a second 20 ms),
 * and a late timer is not a dead Twitch. At Twitch's 10 s the 20 % (2 s) is larger anyway.
 */
const WATCHDOG_MIN_MARGIN_MS = 1000;
const BACKOFF_MIN_S = 1;
const BACKOFF_MAX_S = 60;

/** Close codes after which reconnecting makes sense (reference §1.9); 4003 only when not refused. */
const RECONNECT_CODES = new Set([
  1000, 1001, 1005, 1006, 1011, 4000, 4001, 4002, 4003, 4004, 4005, 4006, 4007,
]);

export class EventSubConnection {
  #socket: WebSocket | null = null;
  /** The socket being replaced during a handover; still read until the new one is welcomed. */
  #retiring: WebSocket | null = null;
  #sessionId: string | null = null;
  #keepaliveS = KEEPALIVE_REQUEST_S;
  #watchdog: ReturnType<typeof setTimeout> | null = null;
  /** When the current socket last sent a frame (performance.now()), for the watchdog. */
  #lastFrameAt = 0;
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
  #attempt = 0;
  #state: ConnectionState = "stopped";
  readonly #second: number;
  readonly #random: () => number;

  constructor(private readonly options: ConnectionOptions) {
    this.#second = options.secondMs ?? 1000;
    this.#random = options.random ?? Math.random;
  }

  get state(): ConnectionState {
    return this.#state;
  }

  get sessionId(): string | null {
    return this.#state === "connected" ? this.#sessionId : null;
  }

  start(): void {
    if (this.#state !== "stopped") return;
    this.#connect(this.#baseUrl(), false);
  }

  stop(): void {
    this.#state = "stopped";
    this.#clearTimers();
    for (const socket of [this.#socket, this.#retiring]) this.#quietClose(socket);
    this.#socket = null;
    this.#retiring = null;
    this.#sessionId = null;
  }

  #baseUrl(): string {
    const url = new URL(this.options.url);
    url.searchParams.set("keepalive_timeout_seconds", String(KEEPALIVE_REQUEST_S));
    return url.href;
  }

  #clearTimers(): void {
    if (this.#watchdog) clearTimeout(this.#watchdog);
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#watchdog = null;
    this.#retryTimer = null;
  }

  #quietClose(socket: WebSocket | null): void {
    if (!socket) return;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
    try {
      socket.close(1000, "done");
    } catch {
      // already closed
    }
  }

  /**
   * Silence longer than the keepalive window (with a margin) means the socket is dead (§1.5). A frame
   * only notes when it came; the one timer, when it fires, sleeps again for what is left of the window
   * since the last frame. (Re-arming a timer on every frame cost a clearTimeout and a setTimeout per
   * keepalive and per chat line: ~6 % of chat's CPU with 1,000 channels, issue 26.)
   */
  #armWatchdog(): void {
    this.#lastFrameAt = performance.now();
    if (this.#watchdog) return;
    const windowMs = () => {
      const keepaliveMs = this.#keepaliveS * this.#second;
      return Math.max(keepaliveMs * WATCHDOG_FACTOR, keepaliveMs + WATCHDOG_MIN_MARGIN_MS);
    };
    const check = () => {
      const left = this.#lastFrameAt + windowMs() - performance.now();
      if (left > 0) {
        this.#watchdog = setTimeout(check, left);
        return;
      }
      this.#watchdog = null;
      this.#lost("no keepalive from Twitch in time", true);
    };
    this.#watchdog = setTimeout(check, windowMs());
  }

  #connect(url: string, handover: boolean): void {
    if (!handover) this.#state = "connecting";
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch (error) {
      this.#lost(`cannot open ${url}: ${(error as Error).message}`, true);
      return;
    }
    if (handover) {
      this.#retiring = this.#socket;
    } else {
      this.#quietClose(this.#socket);
    }
    this.#socket = socket;
    socket.onmessage = (message) => this.#onMessage(socket, message.data);
    socket.onclose = (event) => this.#onClose(socket, event.code, event.reason);
    socket.onerror = () => {
      // The close event that follows carries the code; nothing to do here.
    };
  }

  #onMessage(socket: WebSocket, data: unknown): void {
    if (this.#state === "stopped") return;
    const frame = parseFrame(typeof data === "string" ? data : Buffer.from(data as ArrayBuffer));
    if (!frame) {
      this.options.log.debug("ignored an unreadable EventSub frame");
      return;
    }
    if (socket === this.#socket) this.#armWatchdog();
    switch (frame.type) {
      case "session_welcome":
        this.#onWelcome(socket, frame.sessionId, frame.keepaliveSeconds);
        return;
      case "session_keepalive":
        return;
      case "session_reconnect":
        if (socket !== this.#socket) return;
        this.options.log.info("Twitch moves the EventSub connection to another server");
        this.#connect(frame.reconnectUrl, true);
        return;
      case "notification":
      case "revocation":
        this.options.handlers.onFrame(frame);
        return;
    }
  }

  #onWelcome(socket: WebSocket, sessionId: string, keepaliveSeconds: number): void {
    if (socket !== this.#socket) return;
    this.#keepaliveS = keepaliveSeconds;
    this.#armWatchdog();
    if (this.#retiring) {
      // Handover done: the subscriptions carried over; the old socket may go now.
      this.#quietClose(this.#retiring);
      this.#retiring = null;
      this.#sessionId = sessionId;
      this.#state = "connected";
      return;
    }
    this.#sessionId = sessionId;
    this.#state = "connected";
    this.options.handlers
      .onWelcome(sessionId)
      .then(() => {
        this.#attempt = 0;
      })
      .catch((error: unknown) => {
        if (socket !== this.#socket) return;
        if (error instanceof StopConnection) {
          this.#stopWith(error.message);
          return;
        }
        this.#lost(`subscribing failed: ${(error as Error).message}`, true);
      });
  }

  #onClose(socket: WebSocket, code: number, reason: string): void {
    if (this.#state === "stopped") return;
    if (socket === this.#retiring) {
      // The old socket of a handover closed (4004 after the grace, or early): the new one carries on.
      this.#retiring = null;
      return;
    }
    if (socket !== this.#socket) return;
    if (this.#retiring) {
      // The new socket of a handover failed: keep the old one until it closes, then start fresh.
      this.#socket = this.#retiring;
      this.#retiring = null;
      return;
    }
    const words = `Twitch closed the live connection (${code}${reason ? ` ${reason}` : ""})`;
    this.#lost(words, RECONNECT_CODES.has(code) || code >= 4000);
  }

  #stopWith(reason: string): void {
    this.stop();
    this.options.handlers.onDown(reason, false);
  }

  /** The socket is gone or must go: reconnect to the base URL after a backoff with jitter, or stop. */
  #lost(reason: string, retry: boolean): void {
    if (this.#state === "stopped") return;
    const socket = this.#socket;
    this.#socket = null;
    this.#quietClose(socket);
    this.#quietClose(this.#retiring);
    this.#retiring = null;
    this.#sessionId = null;
    this.#clearTimers();
    if (!retry) {
      this.#stopWith(reason);
      return;
    }
    this.#state = "backoff";
    const base = Math.min(BACKOFF_MAX_S, BACKOFF_MIN_S * 2 ** this.#attempt);
    this.#attempt++;
    const delay = base * (0.5 + this.#random() / 2) * this.#second;
    this.options.log.info("EventSub connection lost; reconnecting", { reason, inMs: Math.round(delay) });
    this.options.handlers.onDown(reason, true);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      if (this.#state === "backoff") this.#connect(this.#baseUrl(), false);
    }, delay);
  }
}
