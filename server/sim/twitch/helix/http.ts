/**
 * What every simulated Helix answer is made of: JSON bodies, Helix's error body `{error, status,
 * message}` (reference/twitch.md §2.0), RFC 3339 timestamps, and the 400s for list parameters that
 * every resource shares.
 */

export const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  410: "Gone",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** Helix errors: `{error: <reason phrase>, status, message}` (reference §2.0). */
export const helixError = (status: number, message: string, headers: Record<string, string> = {}) =>
  json(status, { error: REASONS[status] ?? "Error", status, message }, headers);

export const noContent = () => new Response(null, { status: 204 });

/** A request's JSON body when it is an object; null for anything else (bad JSON, arrays, scalars). */
export async function readJsonObject(request: Request): Promise<Record<string, unknown> | null> {
  try {
    const body: unknown = await request.json();
    return typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** RFC 3339 without milliseconds, as Helix writes timestamps (reference §2.0). */
export const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** Helix's list parameters are repeated (`id=1&id=2`, reference §2.0); empty values are ignored. */
export const all = (query: URLSearchParams, name: string) => query.getAll(name).filter((v) => v !== "");

export const missing = (name: string) => helixError(400, `Missing required parameter "${name}"`);

export const tooMany = (name: string) =>
  helixError(400, `The number of ${name} query parameters exceeds the maximum allowed (100)`);
