import { withoutCommandLead } from "../core/chat-lead.ts";
import { replyHeaders, setHeaders, TEXT_TYPE } from "./final-response.ts";
import { requestInfo } from "./request-info.ts";

/**
 * Chat bots print whatever body comes back, and StreamElements prints nothing but an error unless the
 * status is 200 (CONTRACT §5). Text mode answers one chat line with status 200 and carries the real
 * status in X-Cuebot-Status.
 */

/** Nightbot needs < 400 characters; leave room for a command template's own prefix. */
export const CHAT_LINE_MAX = 380;

/** Routes that have a text mode: the bot commands and the game API. Panel and heavy routes do not. */
const TEXT_ROUTE_PREFIXES = ["/api/followage", "/api/bot/", "/api/game/"];

export function isTextCapablePath(pathname: string): boolean {
  return TEXT_ROUTE_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(prefix));
}

/** `format=text` or a known chat bot's headers choose text; `format=json` forces JSON. */
export function wantsText(request: Request): boolean {
  const info = requestInfo(request);
  const format = info.hasQuery ? info.query.get("format")?.toLowerCase() : undefined;
  if (format === "text") return true;
  if (format === "json") return false;
  const headers = request.headers;
  if (headers.has("nightbot-user") || headers.has("nightbot-channel")) return true;
  // Fossabot sends several x-fossabot-* headers; any one of them says it is Fossabot (CONTRACT §5).
  for (const name of headers.keys()) {
    if (name.startsWith("x-fossabot-")) return true;
  }
  return false;
}

/** Whether this request is answered in text mode; decided once per request. */
export function isTextRequest(request: Request): boolean {
  const info = requestInfo(request);
  info.textMode ??= isTextCapablePath(info.path) && wantsText(request);
  return info.textMode;
}

/** Already one clean line: words of no whitespace or control characters, single spaces between. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rules out
const CLEAN_LINE = /^[^\s\x00-\x1f\x7f]+(?: [^\s\x00-\x1f\x7f]+)*$/;

/**
 * One line, no control characters, at most CHAT_LINE_MAX characters (cut at a word when possible),
 * never leading with a command character: the chat bot posts it as it comes, and `!…` or `/…` would
 * be a command under its name (CONTRACT §6, as native chat's lines).
 */
export function chatLine(line: string): string {
  const text = withoutCommandLead(line);
  // Most answers are clean already: one test instead of rebuilding the string character by character.
  if (text.length <= CHAT_LINE_MAX && CLEAN_LINE.test(text)) return text;
  const flat = Array.from(text, (c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? " " : c))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
  if (flat.length <= CHAT_LINE_MAX) return flat;
  // Cut by code points, never between the two halves of an emoji.
  const cut = Array.from(flat)
    .slice(0, CHAT_LINE_MAX - 1)
    .join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > CHAT_LINE_MAX * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function textResponse(line: string, status: number, headers?: Record<string, string>): Response {
  const response = new Response(chatLine(line), { status: 200, headers: replyHeaders(TEXT_TYPE) });
  const replyHeadersOf = response.headers;
  if (headers !== undefined) {
    setHeaders(replyHeadersOf, headers);
    // The type and the real status are the text mode's own, whatever came along.
    if ("content-type" in headers) replyHeadersOf.set("content-type", TEXT_TYPE);
  }
  replyHeadersOf.set("x-cuebot-status", String(status));
  return response;
}
