import type { Socket } from "bun";
import { HttpResponseReader } from "./http-response-reader.ts";

/**
 * A `fetch` for Helix that speaks HTTP/1.1 over kept-alive sockets on the event loop's own thread.
 * Bun's fetch hands every request to its HTTP client thread and back: two thread switches per call,
 * which at 1,000 chat replies a second cost about a fifth of native chat's CPU (issue 26, perf: the
 * "HTTP Client" thread 12 % and task switching 15 % of the process's samples). This is only the part
 * of fetch the Helix client uses: a string body (or none), a timeout signal, a status, headers and a
 * text body (Content-Length, chunked, or up to close). Anything else goes to Bun's fetch.
 */

interface Pending {
  head: string;
  body: string;
  resolve(response: Response): void;
  reject(error: unknown): void;
  signal: AbortSignal | null;
}

interface Connection {
  socket: Socket<ConnectionState> | null;
  state: ConnectionState;
  /** Its close (or error) was handled: both events may come. */
  closed: boolean;
}

interface ConnectionState {
  reader: HttpResponseReader | null;
  pending: Pending | null;
  /** Bytes of the request not yet taken by the socket. */
  unsent: Buffer | null;
  idleTimer: ReturnType<typeof setTimeout> | null;
  /** The socket answered at least one request already (a reused one may have been closed by the peer). */
  reused: boolean;
  onDone: ((keep: boolean) => void) | null;
}

export interface KeepAliveFetchOptions {
  /** Sockets per origin at most; requests beyond wait for one. */
  maxSockets?: number;
  /** An idle socket is closed after this long (shorter than servers' keep-alive timeouts). */
  idleMs?: number;
}

type FetchLike = (input: URL, init: RequestInit) => Promise<Response>;

function fetchFailed(message: string): TypeError {
  return new TypeError(`fetch failed: ${message}`);
}

/** The request's head and body as HTTP/1.1 text, or null when it is not one this client sends. */
function serialise(url: URL, init: RequestInit): { head: string; body: string } | null {
  if (init.body !== undefined && init.body !== null && typeof init.body !== "string") return null;
  const body = (init.body as string | undefined) ?? "";
  const method = (init.method ?? "GET").toUpperCase();
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`;
  const headers = new Headers(init.headers);
  for (const [name, value] of headers) {
    if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) return null;
    head += `${name}: ${value}\r\n`;
  }
  if (body !== "" || method === "POST" || method === "PUT" || method === "PATCH")
    head += `Content-Length: ${Buffer.byteLength(body)}\r\n`;
  if (!headers.has("accept")) head += "Accept: */*\r\n";
  return { head: `${head}\r\n`, body };
}

class OriginPool {
  readonly #idle: Connection[] = [];
  readonly #waiting: Pending[] = [];
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

  #connect(pending: Pending): void {
    this.#open++;
    const state: ConnectionState = {
      reader: null,
      pending: null,
      unsent: null,
      idleTimer: null,
      reused: false,
      onDone: null,
    };
    const connection: Connection = { socket: null, state, closed: false };
    const https = this.url.protocol === "https:";
    const port = Number(this.url.port) || (https ? 443 : 80);
    state.pending = pending;
    Bun.connect<ConnectionState>({
      hostname: this.url.hostname.replace(/^\[|\]$/g, ""),
      port,
      tls: https ? { serverName: this.url.hostname } : undefined,
      data: state,
      socket: {
        open: (socket) => {
          connection.socket = socket;
          if (state.pending) this.#start(connection, state.pending);
        },
        data: (_socket, chunk) => this.#onData(connection, chunk),
        drain: (socket) => {
          const rest = state.unsent;
          if (!rest) return;
          const written = socket.write(rest);
          state.unsent = written < rest.length ? rest.subarray(written) : null;
        },
        close: () => this.#onClose(connection),
        error: () => this.#onClose(connection),
        connectError: () => this.#onClose(connection),
      },
    }).catch(() => this.#onClose(connection));
  }

  #start(connection: Connection, pending: Pending): void {
    const { state } = connection;
    const socket = connection.socket;
    if (state.idleTimer) clearTimeout(state.idleTimer);
    state.idleTimer = null;
    if (!socket) return;
    if (pending.signal?.aborted) {
      this.#release(connection);
      pending.reject(pending.signal.reason);
      return;
    }
    state.pending = pending;
    state.reader = new HttpResponseReader(pending.head.startsWith("HEAD "));
    const onAbort = () => {
      state.pending = null;
      socket.terminate();
      pending.reject(pending.signal?.reason);
    };
    pending.signal?.addEventListener("abort", onAbort, { once: true });
    state.onDone = (keep) => {
      pending.signal?.removeEventListener("abort", onAbort);
      state.onDone = null;
      state.pending = null;
      state.reader = null;
      state.reused = true;
      if (keep) this.#release(connection);
      else socket.end();
    };
    const bytes = Buffer.from(pending.head + pending.body);
    const written = socket.write(bytes);
    state.unsent = written < bytes.length ? bytes.subarray(Math.max(0, written)) : null;
  }

  #onData(connection: Connection, chunk: Buffer): void {
    const { state } = connection;
    const reader = state.reader;
    const pending = state.pending;
    if (!reader || !pending) {
      // Bytes nobody asked for: the socket is out of step; never reuse it.
      connection.socket?.terminate();
      return;
    }
    let done: ReturnType<HttpResponseReader["push"]>;
    try {
      done = reader.push(chunk);
    } catch (error) {
      state.onDone?.(false);
      pending.reject(fetchFailed((error as Error).message));
      return;
    }
    if (!done) return;
    state.onDone?.(done.keepAlive);
    pending.resolve(new Response(done.status === 204 || done.status === 304 ? null : done.body, done));
  }

  #onClose(connection: Connection): void {
    if (connection.closed) return;
    connection.closed = true;
    this.#open--;
    const { state } = connection;
    if (state.idleTimer) clearTimeout(state.idleTimer);
    state.idleTimer = null;
    const index = this.#idle.indexOf(connection);
    if (index !== -1) this.#idle.splice(index, 1);
    connection.socket = null;
    const pending = state.pending;
    state.pending = null;
    state.onDone = null;
    if (pending) {
      const ended = state.reader?.end();
      if (ended) pending.resolve(new Response(ended.body, ended));
      else pending.reject(fetchFailed("the connection closed before the answer was complete"));
    }
    const next = this.#waiting.shift();
    if (next) this.request(next);
  }

  /** The socket is free: the next waiting request takes it, or it waits idle (closed after `idleMs`). */
  #release(connection: Connection): void {
    const next = this.#waiting.shift();
    if (next) {
      this.#start(connection, next);
      return;
    }
    const socket = connection.socket;
    if (!socket) return;
    this.#idle.push(connection);
    connection.state.idleTimer = setTimeout(() => socket.end(), this.options.idleMs);
    connection.state.idleTimer.unref?.();
  }
}

/** A fetch for `HelixClient` (see above); one pool per origin. */
export function keepAliveFetch(options: KeepAliveFetchOptions = {}): FetchLike {
  const settings = { maxSockets: options.maxSockets ?? 16, idleMs: options.idleMs ?? 4_000 };
  const pools = new Map<string, OriginPool>();
  return (url, init) => {
    const request = url.protocol === "http:" || url.protocol === "https:" ? serialise(url, init) : null;
    if (!request) return fetch(url, init);
    let pool = pools.get(url.origin);
    if (!pool) {
      pool = new OriginPool(url, settings);
      pools.set(url.origin, pool);
    }
    const signal = init.signal ?? null;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const target = pool;
    return new Promise<Response>((resolve, reject) =>
      target.request({ ...request, resolve, reject, signal }),
    );
  };
}
