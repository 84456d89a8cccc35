/**
 * A bare obs-websocket 5 client for protocol tests (reference/obs.md §2–5): it sends exactly the frames
 * a test writes and keeps every frame it gets, so the same test can hold the simulator and a real OBS
 * to the same bytes. JSON subprotocol only.
 */
import { createHash } from "node:crypto";

export interface ObsFrame {
  op: number;
  d: Record<string, unknown>;
}

export interface RequestStatus {
  result: boolean;
  code: number;
  comment?: string;
}

export interface ObsResponse {
  requestType: string;
  requestId: string;
  requestStatus: RequestStatus;
  responseData?: Record<string, unknown>;
}

export interface ObsEvent {
  eventType: string;
  eventIntent: number;
  eventData?: Record<string, unknown>;
}

export interface CloseInfo {
  code: number;
  reason: string;
}

/** base64(sha256(base64(sha256(password + salt)) + challenge)), reference/obs.md §2.3. */
export function authenticationString(password: string, salt: string, challenge: string): string {
  const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");
  return sha(sha(password + salt) + challenge);
}

let nextId = 0;

export class ObsSocket {
  readonly frames: ObsFrame[] = [];
  readonly closed: Promise<CloseInfo>;
  private waiters: Array<() => void> = [];

  private constructor(private readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => {
      ws.addEventListener("close", (event) => {
        resolve({ code: event.code, reason: event.reason });
        this.wake();
      });
    });
    ws.addEventListener("message", (event) => {
      this.frames.push(JSON.parse(String(event.data)) as ObsFrame);
      this.wake();
    });
  }

  /** Connects and waits for Hello (op 0). */
  static async open(url: string, protocols: string[] = ["obswebsocket.json"]): Promise<ObsSocket> {
    const socket = new ObsSocket(new WebSocket(url, protocols));
    await socket.next((frame) => frame.op === 0, 10_000);
    return socket;
  }

  get hello(): Record<string, unknown> {
    return this.frames[0]!.d;
  }

  /** The subprotocol the server chose. */
  get protocol(): string {
    return this.ws.protocol;
  }

  send(op: number, d: unknown): void {
    this.sendText(JSON.stringify({ op, d }));
  }

  sendText(text: string): void {
    this.ws.send(text);
  }

  /** The authentication string for `password` on this connection (Hello's salt and challenge). */
  authentication(password: string): string {
    const auth = this.hello.authentication as { salt: string; challenge: string };
    return authenticationString(password, auth.salt, auth.challenge);
  }

  /** Identify with the password (hashed from Hello's salt and challenge) and wait for Identified. */
  async identify(password: string | null, eventSubscriptions?: number): Promise<ObsFrame> {
    const d: Record<string, unknown> = { rpcVersion: 1 };
    if (this.hello.authentication && password !== null) d.authentication = this.authentication(password);
    if (eventSubscriptions !== undefined) d.eventSubscriptions = eventSubscriptions;
    const from = this.frames.length;
    this.send(1, d);
    return await this.next((frame) => frame.op === 2, 5_000, from);
  }

  async request(requestType: string, requestData?: Record<string, unknown>): Promise<ObsResponse> {
    const requestId = `t${++nextId}`;
    this.send(
      6,
      requestData === undefined ? { requestType, requestId } : { requestType, requestId, requestData },
    );
    const frame = await this.next((f) => f.op === 7 && f.d.requestId === requestId, 5_000);
    return frame.d as unknown as ObsResponse;
  }

  /** A request that must succeed; its responseData ({} when none). */
  async call(requestType: string, requestData?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const response = await this.request(requestType, requestData);
    if (!response.requestStatus.result) {
      throw new Error(`${requestType} failed: ${JSON.stringify(response.requestStatus)}`);
    }
    return response.responseData ?? {};
  }

  async batch(requests: unknown[], options: Record<string, unknown> = {}): Promise<ObsFrame["d"]> {
    const requestId = `b${++nextId}`;
    this.send(8, { requestId, requests, ...options });
    const frame = await this.next((f) => f.op === 9 && f.d.requestId === requestId, 10_000);
    return frame.d;
  }

  /** Events received so far (optionally of one type), oldest first. */
  events(eventType?: string): ObsEvent[] {
    return this.frames
      .filter((frame) => frame.op === 5)
      .map((frame) => frame.d as unknown as ObsEvent)
      .filter((event) => eventType === undefined || event.eventType === eventType);
  }

  /** The first event of that type whose data matches, waiting for it. */
  async event(eventType: string, match: Record<string, unknown> = {}, timeoutMs = 5_000): Promise<ObsEvent> {
    const fits = (frame: ObsFrame) => {
      if (frame.op !== 5 || frame.d.eventType !== eventType) return false;
      const data = (frame.d.eventData ?? {}) as Record<string, unknown>;
      return Object.entries(match).every(([key, value]) => Bun.deepEquals(data[key], value));
    };
    return (await this.next(fits, timeoutMs)).d as unknown as ObsEvent;
  }

  /** The first frame from index `from` on that `fits`, waiting up to `timeoutMs`. */
  async next(fits: (frame: ObsFrame) => boolean, timeoutMs: number, from = 0): Promise<ObsFrame> {
    const deadline = Date.now() + timeoutMs;
    let closed = false;
    void this.closed.then(() => {
      closed = true;
    });
    for (;;) {
      const found = this.frames.slice(from).find(fits);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0 || closed || this.ws.readyState >= WebSocket.CLOSING) {
        throw new Error(
          `no matching frame in ${timeoutMs} ms; got ${JSON.stringify(this.frames).slice(0, 800)}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    if (this.ws.readyState < WebSocket.CLOSING) this.ws.close(1000);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
