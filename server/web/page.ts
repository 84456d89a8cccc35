/** Small server-rendered pages (login results, errors) in the dashboard's look. */

import { jsonError } from "../http/errors.ts";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Pages load their scripts and styles from our own origin only. */
export const PAGE_CSP =
  "default-src 'self'; img-src 'self' https: data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * The overlay page may be framed by the dashboard's live preview (same origin only), and opens a
 * WebSocket to OBS's obs-websocket wherever the streamer's settings say (`via: overlay`: any ws:// or
 * wss:// URL, changed without reloading the page).
 */
export const OVERLAY_PAGE_CSP = PAGE_CSP.replace("frame-ancestors 'none'", "frame-ancestors 'self'").replace(
  "connect-src 'self'",
  "connect-src 'self' ws: wss:",
);

export const DEMO_BANNER =
  '<p class="demo-banner" role="note"><strong>Demo:</strong> simulated Twitch and game provider, nothing is sent anywhere.</p>';

export function htmlResponse(html: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": PAGE_CSP,
      "cache-control": "no-store",
      ...headers,
    },
  });
}

export interface MessagePage {
  title: string;
  message: string;
  action?: { href: string; label: string };
}

export function messagePage(
  page: MessagePage,
  status: number,
  headers: Record<string, string> = {},
): Response {
  const action = page.action
    ? `<p><a class="button" href="${escapeHtml(page.action.href)}">${escapeHtml(page.action.label)}</a></p>`
    : "";
  return htmlResponse(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(page.title)} · cuebot</title><link rel="icon" href="/assets/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/assets/style.css"></head>
<body><main class="narrow"><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.message)}</p>${action}</main></body></html>`,
    status,
    headers,
  );
}

/** Media types are case-insensitive (RFC 9110 §8.3.1): `Accept: Text/HTML` asks for a page too. */
const HTML = /text\/html/i;

export function wantsHtml(request: Request): boolean {
  return HTML.test(request.headers.get("accept") ?? "");
}

/**
 * A refusal on a route browsers visit: the readable page for a browser (`Accept: text/html`), the
 * contract's error body (CONTRACT §5) for every other caller, with the page's message.
 */
export function pageOrError(request: Request, status: number, code: string, page: MessagePage): Response {
  return wantsHtml(request) ? messagePage(page, status) : jsonError(status, code, page.message);
}
