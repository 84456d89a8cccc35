import { Elysia } from "elysia";
import { finalResponse, JSON_TYPE, type ResponseSet, replyHeaders, TEXT_TYPE } from "./final-response.ts";
import { SECURITY_HEADERS } from "./security-headers.ts";
import { syncHook } from "./sync-hook.ts";
import { chatLine, isTextRequest, textResponse } from "./text-mode.ts";

/** A JSON reply built on the reply template (one Response, headers copied natively). */
export function jsonReply(value: unknown, status: number): Response {
  return new Response(JSON.stringify(value), { status, headers: replyHeaders(JSON_TYPE) });
}

/**
 * Turns what a route returned into its one Response. A successful `{status, data: {text}}` answer of a
 * text-capable route becomes its chat line when the caller asked for text (handlers stay
 * format-agnostic: they always return the JSON record); any other plain object becomes JSON. Responses,
 * files, strings and streams are left to Elysia, and so is a status given by name.
 */
export function replies() {
  return new Elysia({ name: "cuebot.replies" }).mapResponse(
    { as: "global" },
    syncHook(({ request, response, set }: { request: Request; response: unknown; set: ResponseSet }) => {
      // Cheapest checks first: only plain objects are ours to shape.
      if (typeof response !== "object" || response === null) return;
      const prototype = Object.getPrototypeOf(response);
      if (prototype !== Object.prototype && prototype !== Array.prototype) return;
      const given = set.status;
      if (given !== undefined && typeof given !== "number") return;
      const status = given ?? 200;
      const text = (response as { data?: { text?: unknown } }).data?.text;
      if (typeof text === "string" && isTextRequest(request)) {
        return finalResponse(set, () => textResponse(text, status));
      }
      return finalResponse(set, () => jsonReply(response, status));
    }),
  );
}

/** A body ready to send and the strong entity tag of its bytes. */
export interface PreparedBody {
  body: string;
  etag: string;
}

/** A success answer whose bodies were serialised once, ahead of the request (server/game/answer.ts). */
export interface PreparedAnswer {
  json(): PreparedBody;
  line(shape: (text: string) => string): PreparedBody;
}

/**
 * `private`: an answer's freshness follows the caller's API key (its role's cache TTL), and every
 * answer, a 304 too, counts against that key's quota or the address's limit, so no shared cache may
 * answer for us. `no-cache`: the client may keep the body but asks again each time, with
 * If-None-Match, and gets a 304 while the answer is unchanged.
 */
export const ANSWER_CACHE_CONTROL = "private, no-cache";

/** Templates of the prepared replies' fixed headers, one per format (copied natively per reply). */
const PREPARED_HEADERS = {
  json: new Headers({
    ...SECURITY_HEADERS,
    "content-type": JSON_TYPE,
    "cache-control": ANSWER_CACHE_CONTROL,
  }),
  text: new Headers({
    ...SECURITY_HEADERS,
    "content-type": TEXT_TYPE,
    "cache-control": ANSWER_CACHE_CONTROL,
    "x-cuebot-status": "200",
  }),
};

/** A quoted entity tag in a header's list, with or without the weak prefix `W/`. */
const ENTITY_TAG = /(?:W\/)?("[^"]*")/g;

/**
 * If-None-Match against our (strong) tag, by RFC 9110's weak comparison (§13.1.2): `*`, or any tag of
 * the list whose quoted part equals ours, `W/` or not.
 */
export function noneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === "*") return true;
  for (const match of header.matchAll(ENTITY_TAG)) if (match[1] === etag) return true;
  return false;
}

/** 304: no body, the tag and the caching rule again. */
function notModified(etag: string): Response {
  const headers = new Headers(SECURITY_HEADERS);
  headers.set("etag", etag);
  headers.set("cache-control", ANSWER_CACHE_CONTROL);
  return new Response(null, { status: 304, headers });
}

/**
 * A prepared answer's reply: its JSON body, or its chat line in text mode, with its ETag; in JSON a
 * 304 when the caller's If-None-Match holds that tag. Text mode always answers 200 with its line
 * (CONTRACT §5: a chat bot posts only a 200's body). The headers gathered on the way (rate-limit
 * counters) go on it as on every reply (finalResponse).
 */
export function preparedReply(request: Request, set: ResponseSet, answer: PreparedAnswer): Response {
  const text = isTextRequest(request);
  const { body, etag } = text ? answer.line(chatLine) : answer.json();
  return finalResponse(set, () => {
    if (!text && noneMatchHits(request.headers.get("if-none-match"), etag)) return notModified(etag);
    const response = new Response(body, { headers: text ? PREPARED_HEADERS.text : PREPARED_HEADERS.json });
    response.headers.set("etag", etag);
    return response;
  });
}
