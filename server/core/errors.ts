/**
 * Errors a person should read, in the contract's shape (CONTRACT §5), with no framework behind them:
 * features throw them, and server/http/errors.ts turns them into a reply (JSON, or one chat line in
 * text mode) while native chat posts their message.
 */

/** Every error body, everywhere (CONTRACT §5). */
export interface ErrorBody {
  status: number;
  error: { code: string; message: string };
}

/**
 * Whether a JSON value holds the NUL character anywhere (a key or a string): PostgreSQL cannot store
 * it (jsonb and text refuse it), so bodies that carry one are refused on both databases alike.
 */
export function containsNul(value: unknown): boolean {
  return JSON.stringify(value)?.includes("\\u0000") ?? false;
}

export function errorBody(status: number, code: string, message: string): ErrorBody {
  return { status, error: { code, message } };
}

/**
 * An error a person should read: thrown anywhere below a route, turned into the contract's shape
 * (or one chat line in text mode) by the error layer.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    // An ApiError is an answer, not a bug: no stack trace is captured (it cost ~1 µs on every refusal).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

export const badRequest = (message: string) => new ApiError(400, "bad_request", message);
export const notFound = (message = "There is nothing at this address.") =>
  new ApiError(404, "not_found", message);
