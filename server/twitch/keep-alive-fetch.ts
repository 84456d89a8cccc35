import type { Socket } from "bun";
import { HttpResponseReader, type ReadResponse } from "./http-response-reader.ts";

/**
 * A `fetch` for Helix that speaks HTTP/1.1 over kept-alive sockets on the event loop's own thread.
 * Bun's fetch hands every request to its HTTP client thread and back: two thread switches per call,
 * which at 1,000 chat replies a second cost about a fifth of native chat's CPU (issue 26, perf: the
 * "HTTP Client" thread 12 % and task switching 15 % of the process's samples). This is only the part
 * of fetch the Helix client uses: a string body (or none), an abort signal, a status, headers and a
 * text body (Content-Length, chunked, or up to close). Anything else goes to Bun's fetch.
 */

interface Pending {
  /** The request as sent: head (latin1, as header bytes are) and body (UTF-8). */
  bytes: Buffer;
  /** A HEAD request: its answer has no body whatever Content-Length says. */
  noBody: boolean;
  method: string;
  /** Settle once; both remove the abort listener. */
  resolve(response: Response): void;
  reject(error: unknown): void;
  /** Resolved or rejected: its deadline, if any, has nothing left to cut. */
  settled: boolean;
  /** The socket carrying (or connecting for) it, so an abort can drop that socket. */
  connection: Connection | null;
  /** Sent again already after a reused socket closed without a byte of answer (see #onClose). */
  retried: boolean;
}

interface Connection {
  /** Null until connected, and after the close. */
  socket: Socket<undefined> | null;
  pending: Pending | null;
  reader: HttpResponseReader | null;
  /** Bytes of the request not yet taken by the socket (written on drain). */
  unsent: Buffer | null;
  idleTimer: ReturnType<typeof setTimeout> | null;
  /** It carried an answer before, so the peer may have closed it while it sat idle. */
  reused: boolean;
  /** A byte of the current answer arrived (then the request surely reached the server). */
  answered: boolean;
  /** close, error and connectError may each come for one socket: only the first counts. */
  closed: boolean;
}

export interface KeepAliveFetchOptions {
  /** Sockets per origin at most; requests beyond wait for one. */
  maxSockets?: number;
  /** An idle socket is closed after this long (shorter than servers' keep-alive timeouts). */
  idleMs?: number;
  /** A socket not open (and through its TLS handshake) this long is given up, and its place freed. */
  connectMs?: number;
}

/**
 * A request of this client may carry its deadline (ms, the answer's body included) instead of an
 * abort signal: the deadlines share one timer, so a call sets no timer and registers no listener.
 * Past it the request fails as `AbortSignal.timeout` makes fetch fail (a `TimeoutError`).
 */
export interface KeepAliveInit extends RequestInit {
  timeoutMs?: number;
}

export type KeepAliveFetch = (input: URL, init: KeepAliveInit) => Promise<Response>;

function timedOut(): DOMException {
  return new DOMException("The operation timed out.", "TimeoutError");
}

interface Deadline {
  pending: Pending;
  pool: OriginPool;
  /** performance.now() at which it is cut. */
  at: number;
}

/**
 * Requests' deadlines, earliest first, on one timer set for the earliest still pending. A request
 * that settled stays in the list until the timer passes it (it answered in milliseconds; the timer
 * fires about once a deadline's length).
 */
class Deadlines {
  #list: Deadline[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  #timerAt = Number.POSITIVE_INFINITY;

  add(pending: Pending, pool: OriginPool, timeoutMs: number): void {
    const at = performance.now() + timeoutMs;
    const list = this.#list;
    let index = list.length;
    while (index > 0 && list[index - 1]!.at > at) index--;
    if (index === list.length) list.push({ pending, pool, at });
    else list.splice(index, 0, { pending, pool, at });
    if (at < this.#timerAt) this.#arm(at);
  }

  #arm(at: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#cut(), Math.max(1, at - performance.now()));
    // It may outlast every request (those settled stay listed): the sockets of the ones pending keep
    // the process up, not this timer, so a command exits once its calls are answered.
    this.#timer.unref?.();
  }

  /** Cuts the requests past their deadline; the timer is set again for the next one pending. */
  #cut(): void {
    this.#timer = null;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const list = this.#list;
    let passed = 0;
    while (passed < list.length && (list[passed]!.pending.settled || list[passed]!.at <= now)) passed++;
    const due = list.slice(0, passed);
    this.#list = list.slice(passed);
    for (const { pending, pool } of due) if (!pending.settled) pool.abort(pending, timedOut());
    const next = this.#list[0];
    if (next) this.#arm(next.at);
  }
}

/** Methods sent again after a kept-alive socket closed under them (RFC 9110 §9.2.2). */
function idempotent(pending: { method: string }): boolean {
  return ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].includes(pending.method);
}

function fetchFailed(message: string): TypeError {
  return new TypeError(`fetch failed: ${message}`);
}

/** Headers this client writes itself: a caller's own would be sent twice or contradict the framing. */
const OWN_HEADERS = ["host", "content-length", "transfer-encoding", "connection"];

/** The request as HTTP/1.1 bytes, or null when it is not one this client sends. */
function serialise(url: URL, init: RequestInit): Pick<Pending, "bytes" | "noBody" | "method"> | null {
  if (init.body !== undefined && init.body !== null && typeof init.body !== "string") return null;
  const body = (init.body as string | undefined) ?? "";
  const method = (init.method ?? "GET").toUpperCase();
  if (!/^[A-Z]+$/.test(method)) return null;
  const headers = new Headers(init.headers);
  if (OWN_HEADERS.some((name) => headers.has(name))) return null;
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`;
  // Headers already refuses CR and LF in names and values, so nothing can be smuggled in here.
  for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
  if (body !== "" || method === "POST" || method === "PUT" || method === "PATCH")
    head += `Content-Length: ${Buffer.byteLength(body)}\r\n`;
  if (!headers.has("accept")) head += "Accept: */*\r\n";
  const bytes = Buffer.concat([Buffer.from(`${head}\r\n`, "latin1"), Buffer.from(body, "utf8")]);
  return { bytes, noBody: method === "HEAD", method };
}

/** Where Bun.connect goes for `url`. */
export function socketTarget(url: URL): {
  hostname: string;
  port: number;
  tls: boolean | { serverName: string };
} {
  const https = url.protocol === "https:";
  // URL keeps IPv6 literals in brackets ("[::1]"); sockets want the bare address.
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  // SNI names a host, never an address (RFC 6066 §3).
  const address = url.hostname.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);
  const tls = https && !address ? { serverName: hostname } : https;
  return { hostname, port: Number(url.port) || (https ? 443 : 80), tls };
}

/** The Response fetch would give; throws (as a fetch failure) on what Response refuses. */
function toResponse(answer: ReadResponse): Response {
  const { status, statusText, headers } = answer;
  const body = status === 204 || status === 304 ? null : answer.body;
  try {
    return new Response(body, { status, statusText, headers });
  } catch (error) {
    throw fetchFailed((error as Error).message);
  }
}

class OriginPool {
  readonly #idle: Connection[] = [];
  readonly #waiting: Pending[] = [];
  /** Sockets connecting, busy or idle: at most maxSockets. */
  #open = 0;

  constructor(
    private readonly url: URL,
    private readonly options: Required<KeepAliveFetchOptions>,
  ) {}

  request(pending: Pending): void {
    const idle = this.#idle.pop();
    if (idle) this.#start(idle, pending);
    else if (this.#open < this.options.maxSockets) this.#connect(pending);
    else this.#waiting.push(pending);
  }

  /** The signal fired: the request leaves the queue, or its socket (out of step now) is dropped. */
  abort(pending: Pending, reason: unknown): void {
    const index = this.#waiting.indexOf(pending);
    if (index !== -1) this.#waiting.splice(index, 1);
    const connection = pending.connection;
    pending.connection = null;
    if (connection?.pending === pending) {
      connection.pending = null;
      // A socket still connecting has none yet: it is kept, and once open serves the next request.
      connection.socket?.terminate();
    }
    pending.reject(reason);
  }

  #connect(pending: Pending): void {
    this.#open++;
    const connection: Connection = {
      socket: null,
      pending,
      reader: null,
      unsent: null,
      idleTimer: null,
      reused: false,
      answered: false,
      closed: false,
    };
    pending.connection = connection;
    // Bun.connect throws at once on options it refuses and rejects later on connect failures.
    try {
      this.#dial(connection);
    } catch (error) {
      this.#onClose(connection, error as Error);
    }
  }

  #dial(connection: Connection): void {
    const target = socketTarget(this.url);
    // Over TLS the request waits for the handshake: nothing is written to a socket not yet secured.
    // A dial that hangs (an address that drops packets) must not hold a place for minutes.
    const connecting = setTimeout(() => {
      if (!connection.socket) this.#onClose(connection, new Error("the connection was not made in time"));
    }, this.options.connectMs);
    connecting.unref?.();
    const ready = (socket: Socket<undefined>) => {
      clearTimeout(connecting);
      if (connection.closed) {
        // Given up meanwhile (its handshake failed, or the dial took too long).
        socket.terminate();
        return;
      }
      connection.socket = socket;
      if (connection.pending) this.#start(connection, connection.pending);
      else this.#release(connection);
    };
    Bun.connect({
      ...target,
      socket: {
        open: (socket) => {
          if (!target.tls) ready(socket);
        },
        // Bun closes a socket whose certificate fails; this keeps the reason for the caller.
        handshake: (socket, _ok, authorizationError) => {
          if (authorizationError) {
            this.#onClose(connection, authorizationError);
            socket.terminate();
            return;
          }
          ready(socket);
        },
        data: (_socket, chunk) => this.#onData(connection, chunk),
        drain: () => this.#flush(connection),
        close: () => this.#onClose(connection),
        error: (_socket, error) => this.#onClose(connection, error),
        connectError: (_socket, error) => this.#onClose(connection, error),
      },
    }).catch((error: Error) => this.#onClose(connection, error));
  }

  #start(connection: Connection, pending: Pending): void {
    if (connection.idleTimer) clearTimeout(connection.idleTimer);
    connection.idleTimer = null;
    connection.pending = pending;
    pending.connection = connection;
    connection.reader = new HttpResponseReader(pending.noBody);
    connection.answered = false;
    connection.unsent = pending.bytes;
    this.#flush(connection);
  }

  /** Writes what the socket takes; the rest waits for its drain. */
  #flush(connection: Connection): void {
    const { socket, unsent } = connection;
    if (!socket || !unsent) return;
    const written = socket.write(unsent);
    connection.unsent = written < unsent.length ? unsent.subarray(Math.max(0, written)) : null;
  }

  #onData(connection: Connection, chunk: Buffer): void {
    const { reader, pending } = connection;
    if (!reader || !pending) {
      // Bytes nobody asked for: the socket is out of step; never reuse it.
      connection.socket?.terminate();
      return;
    }
    connection.answered = true;
    let answer: ReadResponse | null;
    let response: Response;
    try {
      answer = reader.push(chunk);
      if (!answer) return;
      response = toResponse(answer);
    } catch (error) {
      this.#detach(connection);
      connection.socket?.terminate();
      pending.reject(error instanceof TypeError ? error : fetchFailed((error as Error).message));
      return;
    }
    this.#detach(connection);
    connection.reused = true;
    // A request body still unsent means the server answered early: the socket is out of step.
    if (answer.keepAlive && !connection.unsent) this.#release(connection);
    else connection.socket?.end();
    pending.resolve(response);
  }

  #detach(connection: Connection): void {
    if (connection.pending) connection.pending.connection = null;
    connection.pending = null;
    connection.reader = null;
  }

  #onClose(connection: Connection, error?: Error): void {
    if (connection.closed) return;
    connection.closed = true;
    this.#open--;
    if (connection.idleTimer) clearTimeout(connection.idleTimer);
    const index = this.#idle.indexOf(connection);
    if (index !== -1) this.#idle.splice(index, 1);
    connection.socket = null;
    const pending = connection.pending;
    const ended = connection.reader?.end() ?? null;
    this.#detach(connection);
    if (
      pending &&
      !ended &&
      connection.reused &&
      !connection.answered &&
      !pending.retried &&
      idempotent(pending)
    ) {
      // The peer closed the kept-alive socket as the request left (its idle timeout): the request
      // most likely never reached it, so it goes once more on a new socket, as browsers do. Never a
      // POST: a chat line the peer took before closing would be posted twice.
      pending.retried = true;
      this.#connect(pending);
      return;
    }
    if (pending) this.#settleAtClose(pending, ended, error);
    // Its socket's place is free for the next request waiting.
    const next = this.#waiting.shift();
    if (next) this.#connect(next);
  }

  #settleAtClose(pending: Pending, ended: ReadResponse | null, error?: Error): void {
    if (!ended) {
      pending.reject(fetchFailed(error?.message ?? "the connection closed before the answer was complete"));
      return;
    }
    try {
      pending.resolve(toResponse(ended));
    } catch (failure) {
      pending.reject(failure);
    }
  }

  /** The socket is free: the next waiting request takes it, or it waits idle (closed after `idleMs`). */
  #release(connection: Connection): void {
    if (!connection.socket) return;
    const next = this.#waiting.shift();
    if (next) {
      this.#start(connection, next);
      return;
    }
    this.#idle.push(connection);
    connection.idleTimer = setTimeout(() => {
      // Nothing is pending on it: cut it at once and free its place (a TLS close may come later).
      const socket = connection.socket;
      this.#onClose(connection);
      socket?.terminate();
    }, this.options.idleMs);
    connection.idleTimer.unref?.();
  }
}

/** Bun's fetch, for what this client does not send, with the deadline as a signal. */
function fallback(url: URL, init: KeepAliveInit): Promise<Response> {
  const { timeoutMs, ...rest } = init;
  if (timeoutMs === undefined) return fetch(url, rest);
  const deadline = AbortSignal.timeout(timeoutMs);
  return fetch(url, { ...rest, signal: rest.signal ? AbortSignal.any([rest.signal, deadline]) : deadline });
}

/** A fetch for `HelixClient` (see above); one pool per origin. */
export function keepAliveFetch(options: KeepAliveFetchOptions = {}): KeepAliveFetch {
  const settings = {
    maxSockets: options.maxSockets ?? 256,
    idleMs: options.idleMs ?? 4_000,
    connectMs: options.connectMs ?? 5_000,
  };
  const pools = new Map<string, OriginPool>();
  const deadlines = new Deadlines();
  return (url, init) => {
    let request: ReturnType<typeof serialise>;
    try {
      request = url.protocol === "http:" || url.protocol === "https:" ? serialise(url, init) : null;
    } catch (error) {
      return Promise.reject(error); // as fetch does with headers it refuses
    }
    if (!request) return fallback(url, init);
    const signal = init.signal ?? null;
    if (signal?.aborted) return Promise.reject(signal.reason);
    let pool = pools.get(url.origin);
    if (!pool) {
      pool = new OriginPool(url, settings);
      pools.set(url.origin, pool);
    }
    const target = pool;
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => target.abort(pending, signal?.reason);
      const pending: Pending = {
        ...request,
        connection: null,
        retried: false,
        settled: false,
        // The listener goes when the request ends: the caller's signal may outlive it.
        resolve: (response) => {
          pending.settled = true;
          signal?.removeEventListener("abort", onAbort);
          resolve(response);
        },
        reject: (error) => {
          pending.settled = true;
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      if (init.timeoutMs !== undefined) deadlines.add(pending, target, init.timeoutMs);
      target.request(pending);
    });
  };
}
