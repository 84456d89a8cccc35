import { expect } from "bun:test";
import type { BotHarness } from "../../helpers/bot.ts";

/**
 * What the tests of the chat-bot panel routes (custom commands, quotes, timers, regulars) share:
 * a JSON call as the dashboard makes it, and the checks every route passes the same way (no session,
 * a foreign Origin, the error naming its field).
 */

export interface Reply<T = unknown> {
  status: number;
  body: { status: number; data: T; error: { code: string; message: string } };
  field: string | null;
}

/** A dashboard call with the session (and our Origin for writes); `body` is sent as JSON unless a string. */
export async function call<T = unknown>(
  h: BotHarness,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply<T>> {
  const init: RequestInit = { method };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  const res = await h.panel(path, init);
  return {
    status: res.status,
    body: (await res.json()) as Reply<T>["body"],
    field: res.headers.get("x-cuebot-field"),
  };
}

/** A refusal: its status, code, the field it names (in the message and the header). */
export function expectRefusal(reply: Reply, status: number, code: string, field?: string): void {
  expect({ status: reply.status, code: reply.body.error?.code }).toEqual({ status, code });
  expect(reply.body.status).toBe(status);
  if (field !== undefined) {
    expect(reply.field).toBe(field);
    if (status === 400) expect(reply.body.error.message).toContain(`"${field}"`);
  }
}

/**
 * Every route refuses a request without a session (401) and a write from a foreign or missing Origin
 * (403 `bad_origin`), before its handler runs.
 */
export async function expectPanelSecurity(
  h: BotHarness,
  routes: readonly { method: string; path: string; body?: unknown }[],
): Promise<void> {
  for (const route of routes) {
    const body = route.body === undefined ? undefined : JSON.stringify(route.body);
    const anonymous = await h.request(route.path, {
      method: route.method,
      headers: { origin: h.origin, "content-type": "application/json" },
      body,
    });
    expect({ route: `${route.method} ${route.path}`, status: anonymous.status }).toEqual({
      route: `${route.method} ${route.path}`,
      status: 401,
    });
    expect(((await anonymous.json()) as Reply["body"]).error.code).toBe("not_authenticated");
    if (route.method === "GET") continue;
    for (const origin of ["https://evil.example", null]) {
      const headers: Record<string, string> = { cookie: h.cookie, "content-type": "application/json" };
      if (origin) headers.origin = origin;
      const forged = await h.request(route.path, { method: route.method, headers, body });
      expect({ route: `${route.method} ${route.path}`, status: forged.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
      });
      expect(((await forged.json()) as Reply["body"]).error.code).toBe("bad_origin");
    }
  }
}

/** The OpenAPI document lists each path with the panel's session as its credential. */
export async function expectDocumented(
  h: BotHarness,
  paths: Record<string, readonly string[]>,
): Promise<void> {
  const doc = (await (await h.request("/docs/json")).json()) as {
    paths: Record<string, Record<string, { security?: unknown; description?: string }>>;
  };
  for (const [path, methods] of Object.entries(paths)) {
    expect(Object.keys(doc.paths)).toContain(path);
    for (const method of methods) {
      const operation = doc.paths[path]![method]!;
      expect(operation.security).toEqual([{ session: [] }]);
      expect(operation.description).toContain("Origin");
    }
  }
}
