import { Elysia } from "elysia";
import { finalResponse, JSON_TYPE, type ResponseSet, replyHeaders } from "./final-response.ts";
import { syncHook } from "./sync-hook.ts";
import { isTextRequest, textResponse } from "./text-mode.ts";

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
