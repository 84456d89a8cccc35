import { Elysia } from "elysia";
import { ApiError, jsonError } from "./errors.ts";
import { syncHook } from "./sync-hook.ts";

/**
 * Request bodies are parsed before authentication runs (Elysia's lifecycle), so their size is capped
 * first: nothing cuebot accepts is larger than an overlay state (16 KiB) plus room. A body announced
 * larger is refused before a byte of it is read; a body sent without a length (chunked) is counted as
 * it arrives and cut at the cap. Bun's maxRequestBodySize (listen.ts) is only the ceiling of what Bun
 * itself reads for a route that never looks at the body.
 */
export const MAX_BODY_BYTES = 64 * 1024;

const TOO_LARGE_MESSAGE = `Request bodies may be at most ${MAX_BODY_BYTES / 1024} KiB.`;
/** The rest of a refused body is not worth reading: the connection closes after the answer. */
const CLOSE = { connection: "close" };

/** Thrown from inside body parsing, where only an error can stop the request. */
function payloadTooLarge(): ApiError {
  return new ApiError(413, "payload_too_large", TOO_LARGE_MESSAGE, CLOSE);
}

/** The body's bytes, read as they arrive; past the cap the read stops and 413 is thrown. */
async function readCapped(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  const reader = request.body?.getReader();
  if (reader === undefined) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      void reader.cancel().catch(() => undefined);
      throw payloadTooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * Makes every way of reading this request's body go through readCapped. Elysia's parsers call the
 * Request's own methods (`request.json()` …), so a chunked body is counted whichever parser the route
 * has, and only requests that carry one pay for it.
 */
function countAsItArrives(request: Request): void {
  const bytes = () => readCapped(request);
  const text = async () => new TextDecoder().decode(await bytes());
  const reread = async () =>
    new Response(await bytes(), { headers: { "content-type": request.headers.get("content-type") ?? "" } });
  Object.defineProperties(request, {
    arrayBuffer: { value: async () => (await bytes()).buffer },
    bytes: { value: bytes },
    text: { value: text },
    json: { value: async () => JSON.parse(await text()) },
    blob: { value: async () => (await reread()).blob() },
    formData: { value: async () => (await reread()).formData() },
  });
}

function checkBody(request: Request): Response | undefined {
  const length = request.headers.get("content-length");
  if (length !== null) {
    return Number(length) > MAX_BODY_BYTES
      ? jsonError(413, "payload_too_large", TOO_LARGE_MESSAGE, CLOSE)
      : undefined;
  }
  // Bodies of GET and HEAD are never read (Elysia parses none): the hot rows skip the second lookup.
  const method = request.method;
  if (method !== "GET" && method !== "HEAD" && request.headers.has("transfer-encoding")) {
    countAsItArrives(request);
  }
  return undefined;
}

export function bodyLimit() {
  return new Elysia({ name: "cuebot.body-limit" }).onRequest(syncHook(({ request }) => checkBody(request)));
}
