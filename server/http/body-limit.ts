import { Elysia } from "elysia";
import type { CoreContext } from "../core/context.ts";
import { isLiveSession, SESSION_COOKIE } from "../core/sessions.ts";
import { readCookie } from "./auth.ts";
import { jsonError } from "./errors.ts";
import { asHandle, type Handle, oncePerHandler } from "./handler-wrap.ts";
import { syncHook } from "./sync-hook.ts";

/**
 * Nothing cuebot accepts in a body is larger than an overlay state (16 KiB) plus room, but for the
 * routes of LARGE_BODY_ROUTES (for a request whose session cookie names a live session: a forged one
 * buys nothing, CONTRACT §5). A body announced larger than its route's cap is refused before a byte
 * of it is read. A body sent without a length (chunked) is read up to the cap before any layer or
 * route runs, whether the route reads a body or not, and refused once it passes the cap; the route
 * then reads the bytes already read. Bun's maxRequestBodySize (listen.ts, BODY_CEILING_BYTES) is the
 * ceiling of what Bun itself reads of an announced body.
 */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The dashboard's import of a Nightbot or StreamElements list (panel/custom-command-tools.ts): up to
 * 1,000 commands of 500-character messages, ~600 KiB of JSON at worst, in one request.
 */
export const IMPORT_BODY_BYTES = 1024 * 1024;

/** An alert image or sound uploaded from the dashboard (panel/alert-assets.ts): the file itself, ≤ 1 MiB. */
export const ALERT_ASSET_BODY_BYTES = 1024 * 1024;

/** Routes (method and path) whose bodies may be larger than MAX_BODY_BYTES, and their caps. */
const LARGE_BODY_ROUTES: ReadonlyMap<string, number> = new Map([
  ["POST /api/dashboard/custom-commands/import", IMPORT_BODY_BYTES],
  ["POST /api/dashboard/alerts/assets", ALERT_ASSET_BODY_BYTES],
]);

/**
 * What Bun reads at most of an announced body (listen.ts): twice the largest cap, so a body somewhat
 * over a cap still gets the contract's 413 from this layer; past it, Bun's own empty 413.
 */
export const BODY_CEILING_BYTES = 2 * Math.max(MAX_BODY_BYTES, ...LARGE_BODY_ROUTES.values());

/** A dashboard session cookie, present (whether it names a live session is asked only when it matters). */
const SESSION_COOKIE_PRESENT = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE}=[^;\\s]`, "u");

/**
 * The larger cap this request may be granted: its route is one of LARGE_BODY_ROUTES and it carries
 * the session cookie. Only a path that can name a large route is parsed: the hot paths never pay for
 * the URL.
 */
function largerCapAsked(request: Request): number | undefined {
  const url = request.url;
  if (!url.includes("/api/dashboard/")) return undefined;
  const path = new URL(url).pathname.replace(/\/+$/u, "");
  const cap = LARGE_BODY_ROUTES.get(`${request.method} ${path}`);
  if (cap === undefined || !SESSION_COOKIE_PRESENT.test(request.headers.get("cookie") ?? ""))
    return undefined;
  return cap;
}

type SessionContext = Pick<CoreContext, "db" | "clock" | "accounts">;

/**
 * The cap on this request's body. The large routes are the dashboard's, so their cap needs a live
 * session: an anonymous client, or one with a forged cookie, never gets more than MAX_BODY_BYTES
 * buffered before the route's 401. The session is looked up (one indexed read) only for a large
 * route's body past MAX_BODY_BYTES, and read only: the route's own validation renews it.
 */
export async function bodyCapOf(ctx: SessionContext, request: Request): Promise<number> {
  const cap = largerCapAsked(request);
  const token = readCookie(request, SESSION_COOKIE);
  if (cap === undefined || !token) return MAX_BODY_BYTES;
  try {
    return (await isLiveSession(ctx, token)) ? cap : MAX_BODY_BYTES;
  } catch {
    // The database did not answer: the smaller cap, and the route says what went wrong.
    return MAX_BODY_BYTES;
  }
}

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`;

/** The rest of a refused body is not worth reading: the connection closes after the answer. */
const CLOSE = { connection: "close" };

function payloadTooLarge(cap: number): Response {
  return jsonError(413, "payload_too_large", `Request bodies may be at most ${sizeText(cap)}.`, CLOSE);
}

/**
 * Bun hands no body of a GET or HEAD to the server (the request's body is null), so a chunked one
 * cannot be counted: it is refused whatever its size.
 */
function bodyNotReadable(): Response {
  return jsonError(
    413,
    "payload_too_large",
    "A GET or HEAD request cannot carry a body sent without Content-Length.",
    CLOSE,
  );
}

/** The client stopped sending halfway (or sent what Bun could not decode). */
function bodyUnreadable(): Response {
  return jsonError(400, "bad_request", "The request body could not be read.", CLOSE);
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The body's bytes, read as they arrive; undefined once they pass the cap (the read stops there). */
async function readCapped(
  body: ReadableStream<Uint8Array>,
  cap: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concat(chunks, size);
    size += value.byteLength;
    if (size > cap) {
      void reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
}

/**
 * Every way of reading the request's body (Elysia's parsers call `request.json()` …) answers from the
 * bytes already read. The Request itself stays: Bun knows the client's address by it.
 */
function serveBodyFrom(request: Request, bytes: Uint8Array<ArrayBuffer>): void {
  const type = request.headers.get("content-type") ?? "";
  const text = async () => new TextDecoder().decode(bytes);
  Object.defineProperties(request, {
    arrayBuffer: { value: async () => bytes.buffer },
    bytes: { value: async () => bytes },
    text: { value: text },
    json: { value: async () => JSON.parse(await text()) },
    blob: { value: async () => new Blob([bytes], { type }) },
    formData: { value: () => new Response(bytes, { headers: { "content-type": type } }).formData() },
  });
}

/** Announced bodies are judged by their length, before authentication and body parsing. */
function announcedLength(request: Request): number {
  return Number(request.headers.get("content-length") ?? 0);
}

/**
 * Refuses, before any layer runs, a body announced larger than MAX_BODY_BYTES, unless it asks for a
 * larger route's cap: that one is judged (with its session) by the handler `bodyLimit` wraps.
 */
function checkAnnouncedLength(request: Request): Response | undefined {
  if (!(announcedLength(request) > MAX_BODY_BYTES) || largerCapAsked(request) !== undefined) return undefined;
  return payloadTooLarge(MAX_BODY_BYTES);
}

/**
 * Only a request carrying Transfer-Encoding, or announcing a body past MAX_BODY_BYTES for a large
 * route, waits for its cap (the hot paths never send one): any other request goes to Elysia's
 * handler as it came.
 */
export function bodyLimit(ctx: SessionContext) {
  /** Reads a chunked body up to the cap, then runs the request, or answers 413 past the cap. */
  const readBodyFirst = oncePerHandler((handle: Handle) => async (request: Request) => {
    let bytes: Uint8Array<ArrayBuffer> | undefined;
    const cap = await bodyCapOf(ctx, request);
    try {
      bytes = request.body === null ? new Uint8Array(0) : await readCapped(request.body, cap);
    } catch {
      return bodyUnreadable();
    }
    if (bytes === undefined) return payloadTooLarge(cap);
    serveBodyFrom(request, bytes);
    return handle(request);
  });
  /** A large route's announced body, judged against the cap its session grants before it runs. */
  const judgeLengthFirst = oncePerHandler((handle: Handle) => async (request: Request) => {
    const cap = await bodyCapOf(ctx, request);
    return announcedLength(request) > cap ? payloadTooLarge(cap) : handle(request);
  });
  /** How a request carrying Transfer-Encoding is handled: its body read first, or refused unread. */
  const chunkedBody = (handle: Handle, method: string): Handle =>
    method === "GET" || method === "HEAD" ? bodyNotReadable : readBodyFirst(handle);
  return new Elysia({ name: "cuebot.body-limit" })
    .onRequest(syncHook(({ request }) => checkAnnouncedLength(request)))
    .wrap((elysiaHandle, request) => {
      const handle = asHandle(elysiaHandle);
      if (request.headers.has("transfer-encoding")) return chunkedBody(handle, request.method);
      if (announcedLength(request) > MAX_BODY_BYTES && largerCapAsked(request) !== undefined) {
        return judgeLengthFirst(handle);
      }
      return handle;
    });
}
