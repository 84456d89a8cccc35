import { LRUCache } from "lru-cache";
import { type KeepAliveFetch, keepAliveFetch } from "./keep-alive-fetch.ts";

/**
 * The Helix client: Client-Id + Bearer on every call, a 5 s ceiling per request, one retry on 503
 * (reference/twitch.md §2.0), and failures as `HelixError` with the status to branch on (Twitch
 * says not to depend on message strings).
 */

export interface HelixUser {
  id: string;
  login: string;
  display_name: string;
  type: string;
  broadcaster_type: string;
  description: string;
  profile_image_url: string;
  offline_image_url: string;
  created_at: string;
  email?: string;
}

export class HelixError extends Error {
  constructor(
    /** HTTP status from Helix, or null when it could not be reached or timed out. */
    readonly status: number | null,
    message: string,
    /** For a 429: when Twitch's bucket refills (Unix ms, from `Ratelimit-Reset`), if it said. */
    readonly retryAt: number | null = null,
  ) {
    super(message);
  }
}

/** One EventSub subscription as Get EventSub Subscriptions lists it (the fields cuebot reads). */
export interface EventSubSubscriptionInfo {
  id: string;
  status: string;
  type: string;
  condition: Record<string, string>;
  transport: { method: string; session_id?: string };
}

export interface HelixRequest {
  token: string;
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  query?: Record<string, string | number | boolean | (string | number)[] | undefined>;
  body?: unknown;
  /** Endpoints with a rate-limit bucket of their own (Send Chat Message) name it, so it is tracked apart. */
  bucket?: string;
}

export interface HelixClientOptions {
  baseUrl: string;
  clientId: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Unix ms; compared with Twitch's `Ratelimit-Reset` (the injected clock in tests). */
  now?: () => number;
}

export class HelixClient {
  /** An injected fetch (tests), whose calls get a deadline signal; else the keep-alive client's. */
  readonly #fetch: ((url: URL, init: RequestInit) => Promise<Response>) | null;
  /** Keeps each call's deadline on its one timer: no timer, controller or listener per call. */
  readonly #keepAlive: KeepAliveFetch;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  /**
   * Tokens whose bucket Twitch said is empty (a 429, or `Ratelimit-Remaining: 0`), until its
   * `Ratelimit-Reset`: calls fail fast instead of hammering Twitch (reference §2.0). Buckets are per
   * client and user, so per token is the right key.
   */
  #exhaustedUntil: LRUCache<string, number> | null = null;

  /**
   * Made the first time Twitch says a bucket is used up: an LRUCache allocates arrays for all of its
   * `max` entries when it is built (~280 KB here), which a server whose limits are never reached does
   * not need.
   */
  #exhausted(): LRUCache<string, number> {
    this.#exhaustedUntil ??= new LRUCache<string, number>({ max: 10_000 });
    return this.#exhaustedUntil;
  }

  constructor(private readonly options: HelixClientOptions) {
    // Helix calls stay on the event loop's thread (keep-alive-fetch.ts): cheaper than Bun's fetch.
    this.#fetch = options.fetch ?? null;
    this.#keepAlive = keepAliveFetch();
    this.#timeoutMs = options.timeoutMs ?? 5000;
    this.#now = options.now ?? Date.now;
  }

  /** Returns the parsed JSON body (or null for 204); throws HelixError on any non-2xx. */
  async call<T>(path: string, request: HelixRequest): Promise<T> {
    const url = new URL(`${this.options.baseUrl}${path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value === undefined) continue;
      // Helix lists are repeated parameters (id=1&id=2), never comma-separated.
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
    }
    const init: RequestInit = {
      method: request.method ?? "GET",
      headers: {
        "Client-Id": this.options.clientId,
        Authorization: `Bearer ${request.token}`,
        ...(request.body !== undefined ? { "Content-Type": "application/json" } : {}),
      },
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    };
    const bucket = request.bucket ? `${request.token} ${request.bucket}` : request.token;
    const until = this.#exhaustedUntil?.get(bucket);
    if (until !== undefined && until > this.#now()) {
      throw new HelixError(
        429,
        "Twitch's rate limit for this channel is used up; it refills within a minute",
        until,
      );
    }
    let { response, text } = await this.#attempt(url, init);
    if (response.status === 503) ({ response, text } = await this.#attempt(url, init));
    this.#noteRateLimit(bucket, response);
    if (response.status === 204) return null as T;
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!response.ok) {
      const message =
        parsed && typeof parsed === "object" && typeof (parsed as { message?: unknown }).message === "string"
          ? (parsed as { message: string }).message
          : "";
      const reset = Number(response.headers.get("ratelimit-reset"));
      throw new HelixError(
        response.status,
        message || `Helix answered ${response.status}`,
        response.status === 429 && reset > 0 ? reset * 1000 : null,
      );
    }
    return parsed as T;
  }

  #noteRateLimit(token: string, response: Response): void {
    const remaining = response.headers.get("ratelimit-remaining");
    const reset = Number(response.headers.get("ratelimit-reset"));
    if ((response.status === 429 || remaining === "0") && Number.isFinite(reset) && reset > 0) {
      this.#exhausted().set(token, reset * 1000);
    } else {
      this.#exhaustedUntil?.delete(token);
    }
  }

  /**
   * One request within its own deadline, the body included. The keep-alive client keeps deadlines
   * on one timer of its own (a controller, a timer and an abort listener per call were about 4 % of
   * native chat's CPU at 1,000 replies a second); an injected fetch gets a signal whose timer is
   * cleared when the call ends (AbortSignal.timeout left one behind every call for its whole 5 s).
   */
  async #attempt(url: URL, init: RequestInit): Promise<{ response: Response; text: string }> {
    try {
      if (this.#fetch) return await this.#signalled(this.#fetch, url, init);
      const response = await this.#keepAlive(url, { ...init, timeoutMs: this.#timeoutMs });
      // The keep-alive client's answer is whole when it resolves: its body is read at once.
      return { response, text: await bodyOf(response) };
    } catch (error) {
      const timedOut = (error as Error).name === "TimeoutError";
      throw new HelixError(null, timedOut ? "Twitch did not answer in time" : "Twitch could not be reached");
    }
  }

  /** Through an injected fetch: a signal aborts it at the deadline. */
  async #signalled(
    fetch: (url: URL, init: RequestInit) => Promise<Response>,
    url: URL,
    init: RequestInit,
  ): Promise<{ response: Response; text: string }> {
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException("Twitch did not answer in time", "TimeoutError")),
      this.#timeoutMs,
    );
    try {
      const response = await fetch(url, { ...init, signal: deadline.signal });
      return { response, text: await bodyOf(response) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Get Users: with no ids or logins, the token's own user. */
  async getUsers(token: string, filter: { id?: string[]; login?: string[] } = {}): Promise<HelixUser[]> {
    const body = await this.call<{ data: HelixUser[] }>("/users", {
      token,
      query: { id: filter.id, login: filter.login },
    });
    return body.data;
  }
}

/** A response's text ("" for a 204). */
function bodyOf(response: Response): Promise<string> | string {
  return response.status === 204 ? "" : response.text();
}
