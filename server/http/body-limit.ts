import { Elysia } from "elysia";
import { jsonError } from "./errors.ts";
import { asHandle, type Handle, oncePerHandler } from "./handler-wrap.ts";
import { syncHook } from "./sync-hook.ts";

/**
 * Nothing cuebot accepts in a body is larger than an overlay state (16 KiB) plus room. A body
 * announced larger is refused before a byte of it is read. A body sent without a length (chunked) is
 * read up to the cap before any layer or route runs, whether the route reads a body or not, and
 * refused once it passes the cap; the route then reads the bytes already read. Bun's
 * maxRequestBodySize (listen.ts) is the ceiling of what Bun itself reads of an announced body.
 */
export const MAX_BODY_BYTES = 64 * 1024;

const TOO_LARGE_MESSAGE = `Request bodies may be at most ${MAX_BODY_BYTES / 1024} KiB.`;

/** The rest of a refused body is not worth reading: the connection closes after the answer. */
const CLOSE = { connection: "close" };

function payloadTooLarge(): Response {
  return jsonError(413, "payload_too_large", TOO_LARGE_MESSAGE, CLOSE);
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
async function readCapped(body: ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concat(chunks, size);
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
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

/** Reads a chunked body up to the cap, then runs the request, or answers 413 past the cap. */
const readBodyFirst = oncePerHandler((handle: Handle) => async (request: Request) => {
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  try {
    bytes = request.body === null ? new Uint8Array(0) : await readCapped(request.body);
  } catch {
    return bodyUnreadable();
  }
  if (bytes === undefined) return payloadTooLarge();
  serveBodyFrom(request, bytes);
  return handle(request);
});

/** How a request carrying Transfer-Encoding is handled: its body read first, or refused unread. */
function chunkedBody(handle: Handle, method: string): Handle {
  return method === "GET" || method === "HEAD" ? bodyNotReadable : readBodyFirst(handle);
}

/** Announced bodies are judged by their length, before authentication and body parsing. */
function checkAnnouncedLength(request: Request): Response | undefined {
  const length = request.headers.get("content-length");
  return length !== null && Number(length) > MAX_BODY_BYTES ? payloadTooLarge() : undefined;
}

/**
 * Only a request carrying Transfer-Encoding waits for its body (the hot paths never send one): any
 * other request goes to Elysia's handler as it came.
 */
export function bodyLimit() {
  return new Elysia({ name: "cuebot.body-limit" })
    .onRequest(syncHook(({ request }) => checkAnnouncedLength(request)))
    .wrap((elysiaHandle, request) => {
      const handle = asHandle(elysiaHandle);
      return request.headers.has("transfer-encoding") ? chunkedBody(handle, request.method) : handle;
    });
}
