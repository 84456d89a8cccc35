import { Elysia, type ValidationError } from "elysia";
import { StoreUnavailableError } from "../../db/store-unavailable.ts";
import { ApiError, errorBody } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import { finalResponse, JSON_TYPE, type ResponseSet, replyHeaders, setHeaders } from "./final-response.ts";
import { requestInfo } from "./request-info.ts";
import { syncHook } from "./sync-hook.ts";
import { isTextRequest, textResponse } from "./text-mode.ts";

/** The error as JSON, or as one chat line (status 200, real status in X-Cuebot-Status) in text mode. */
export function errorResponse(
  request: Request,
  status: number,
  code: string,
  message: string,
  headers?: Record<string, string>,
): Response {
  if (isTextRequest(request)) return textResponse(message, status, headers);
  return jsonError(status, code, message, headers);
}

export function jsonError(
  status: number,
  code: string,
  message: string,
  headers?: Record<string, string>,
): Response {
  const response = new Response(JSON.stringify(errorBody(status, code, message)), {
    status,
    headers: replyHeaders(JSON_TYPE),
  });
  if (headers !== undefined) setHeaders(response.headers, headers);
  return response;
}

const LOCATION_NAMES: Record<string, string> = {
  query: "query parameter",
  params: "path parameter",
  body: "body field",
  headers: "header",
  cookie: "cookie",
};

/** A validation failure names the parameter, in words a chat-bot author understands. */
export function describeValidationError(error: ValidationError): string {
  const first = error.all[0];
  const where = LOCATION_NAMES[error.type] ?? "parameter";
  const path = first && "path" in first ? String(first.path).replace(/^\//, "").replaceAll("/", ".") : "";
  if (!path) return `The request ${error.type === "body" ? "body" : where} is not valid.`;
  const schema = first && "schema" in first ? (first.schema as { anyOf?: { const?: unknown }[] }) : undefined;
  const choices = schema?.anyOf?.map((s) => s.const).filter((c) => c !== undefined);
  if (choices && choices.length > 0) return `The ${where} "${path}" must be one of ${choices.join(", ")}.`;
  const reason = first && "message" in first && first.message ? first.message : "is not valid";
  return `The ${where} "${path}" is not valid: ${String(reason).replace(/^Expected /, "expected ")}.`;
}

/**
 * The finished reply for an error: headers set before it (security headers, rate-limit counters) stay
 * on it, and it is built once (finalResponse). A hook that returns this instead of throwing skips
 * Elysia's error path, which cost ~4 µs per refusal.
 */
export function errorReply(
  set: ResponseSet,
  request: Request,
  status: number,
  code: string,
  message: string,
  extra?: Record<string, string>,
): Response {
  return finalResponse(set, () => errorResponse(request, status, code, message, extra));
}

/** How long a client should wait when the shared store is away: it reconnects within about a second. */
const STORE_RETRY_AFTER_SECONDS = "5";
/** One warning per this many ms while the shared store stays away, not one per request. */
const STORE_WARNING_INTERVAL_MS = 60_000;
/**
 * Redis did not answer a limit check (down, restarting, frozen), or PostgreSQL a query: the request is
 * refused with 503 `store_unavailable` rather than admitted unlimited (or half done), and the next
 * request tries again — so service resumes by itself as soon as the store is back.
 */
function storeUnavailableReply(
  reply: (status: number, code: string, message: string, extra?: Record<string, string>) => Response,
  store: StoreUnavailableError["store"],
): Response {
  return reply(
    503,
    "store_unavailable",
    store === "redis"
      ? "cuebot cannot check its rate limits right now (its shared store is not answering); try again in a few seconds."
      : "cuebot cannot reach its database right now; try again in a few seconds.",
    { "retry-after": STORE_RETRY_AFTER_SECONDS },
  );
}

/** Maps every failure to the contract's error shape; unknown errors become `internal` with no details. */
export function errorHandling(log: Logger) {
  let lastStoreWarning = 0;
  return new Elysia({ name: "cuebot.errors" }).onError(
    { as: "global" },
    syncHook(({ code, error, request, set }) => {
      const reply = (status: number, errorCode: string, message: string, extra?: Record<string, string>) =>
        errorReply(set as ResponseSet, request, status, errorCode, message, extra);
      // An ApiError thrown while the body was read (the body limit) reaches here wrapped as a parse error.
      const cause = code === "PARSE" ? (error as Error).cause : undefined;
      if (cause instanceof ApiError) return reply(cause.status, cause.code, cause.message, cause.headers);
      if (error instanceof ApiError) return reply(error.status, error.code, error.message, error.headers);
      if (error instanceof StoreUnavailableError) {
        const now = Date.now();
        if (now - lastStoreWarning >= STORE_WARNING_INTERVAL_MS) {
          lastStoreWarning = now;
          log.warn(
            `requests are refused with 503: ${error.store === "redis" ? "Redis" : "PostgreSQL"} does not answer`,
            {
              error: error.message,
            },
          );
        }
        return storeUnavailableReply(reply, error.store);
      }
      switch (code) {
        case "NOT_FOUND":
          return reply(404, "not_found", "There is nothing at this address.");
        case "VALIDATION":
          return reply(400, "bad_request", describeValidationError(error as ValidationError));
        case "PARSE":
          return reply(400, "bad_request", "The request body could not be parsed.");
        case "INVALID_COOKIE_SIGNATURE":
          return reply(401, "not_authenticated", "Your session is not valid; please log in again.");
      }
      const status = (error as { status?: unknown }).status;
      if (typeof status === "number" && status >= 400 && status < 500) {
        return reply(
          status,
          status === 405 ? "method_not_allowed" : "bad_request",
          "The request is not valid.",
        );
      }
      log.error("unhandled error", { path: requestInfo(request).path, error });
      return reply(500, "internal", "Something went wrong on our side; it has been logged.");
    }),
  );
}
