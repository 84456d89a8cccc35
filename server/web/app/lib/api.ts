// The dashboard talks to cuebot's own API with the session cookie. State-changing calls are same-origin
// fetches, so the browser sends the Origin header the server checks.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds until a rate-limited request would be admitted (from Retry-After). */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

interface Envelope<T> {
  status: number;
  data: T;
}

interface ErrorBody {
  error?: { code?: string; message?: string };
}

/** What a request that got no answer at all (offline, cuebot down) says. */
export const NO_ANSWER = "cuebot did not answer; check your connection and try again.";

async function send(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(path, { credentials: "same-origin", ...init }).catch((error: unknown) => {
    // The browser's own words ("Failed to fetch", "NetworkError…") say nothing to a streamer.
    if (error instanceof TypeError) throw new ApiError(0, "network", NO_ANSWER);
    throw error;
  });
  if (response.status === 401) {
    window.location.href = "/";
    throw new ApiError(401, "not_authenticated", "Your session ended; log in again.");
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as ErrorBody;
    const retry = Number(response.headers.get("retry-after"));
    throw new ApiError(
      response.status,
      body.error?.code ?? "error",
      body.error?.message ?? `The request failed (${response.status}).`,
      response.status === 429 && Number.isFinite(retry) && retry > 0 ? retry : null,
    );
  }
  return response;
}

function jsonInit(method: string, body: unknown): RequestInit {
  return body === undefined
    ? { method }
    : { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}

/** GET a panel endpoint's `data`. */
export async function getData<T>(path: string): Promise<T> {
  return ((await (await send(path)).json()) as Envelope<T>).data;
}

/** POST/PUT/DELETE with an optional JSON body; answers `data`. */
export async function sendData<T>(
  method: "POST" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
): Promise<T> {
  return ((await (await send(path, jsonInit(method, body))).json()) as Envelope<T>).data;
}

/** POST a file as the request's raw body (an upload); answers `data`. */
export async function sendFile<T>(path: string, file: Blob): Promise<T> {
  return ((await (await send(path, { method: "POST", body: file })).json()) as Envelope<T>).data;
}

/** GET raw (the session check answers at top level). */
export async function getJson<T>(path: string): Promise<T> {
  return (await (await send(path)).json()) as T;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One request shared by several panels; a failed one is asked again by the next caller (a retry). */
export function shared<T>(fetcher: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    const current = pending ?? fetcher();
    pending = current;
    current.catch(() => {
      if (pending === current) pending = null;
    });
    return current;
  };
}
