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
  ) {
    super(message);
  }
}

export interface HelixRequest {
  token: string;
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  query?: Record<string, string | number | boolean | (string | number)[] | undefined>;
  body?: unknown;
}

export interface HelixClientOptions {
  baseUrl: string;
  clientId: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export class HelixClient {
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;

  constructor(private readonly options: HelixClientOptions) {
    this.#fetch = options.fetch ?? fetch;
    this.#timeoutMs = options.timeoutMs ?? 5000;
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
    let response = await this.#send(url, init);
    if (response.status === 503) response = await this.#send(url, init);
    if (response.status === 204) return null as T;
    const text = await response.text();
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
      throw new HelixError(response.status, message || `Helix answered ${response.status}`);
    }
    return parsed as T;
  }

  async #send(url: URL, init: RequestInit): Promise<Response> {
    try {
      return await this.#fetch(url, { ...init, signal: AbortSignal.timeout(this.#timeoutMs) });
    } catch (error) {
      const timedOut = (error as Error).name === "TimeoutError";
      throw new HelixError(null, timedOut ? "Twitch did not answer in time" : "Twitch could not be reached");
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
