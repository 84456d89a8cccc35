import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { listen, type RunningServer } from "../../../server/listen.ts";
import { type IdentityHarness, startIdentityHarness } from "../../helpers/twitch.ts";

/**
 * A fuzz over every route /docs/json lists: each path parameter replaced by a broken or hostile
 * percent-encoding, sent with the credentials the route takes, in process and over a socket (where
 * Bun decodes some broken escapes itself). No answer may be a 5xx; each is the contract's error body.
 */
const MALFORMED = [
  "%",
  "%%",
  "%zz",
  "%E0%A4%A",
  "%C3",
  "%F0%9F%98",
  "%00",
  "a%00b",
  "%FF",
  "%u0041",
  "%2",
  "x%",
];

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

interface Credentials {
  cookie: string;
  apiKey: string;
  overlayToken: string;
}

let h: IdentityHarness;
let server: RunningServer;
let credentials: Credentials;
let routes: { method: string; template: string }[];

beforeAll(async () => {
  h = await startIdentityHarness({
    configure: (c) => {
      c.port = 0;
    },
  });
  server = listen(h.ctx, h.app);
  const { cookie } = await h.login("cuebotdemo");
  const panel = { cookie, origin: h.origin };
  const key = await h.request("/api/dashboard/security/reveal-key", { method: "POST", headers: panel });
  const overlay = await h.request("/api/dashboard/overlay", { headers: panel });
  const overlayUrl = ((await overlay.json()) as { data: { overlay_url: string } }).data.overlay_url;
  credentials = {
    cookie,
    apiKey: ((await key.json()) as { data: { apiKey: string } }).data.apiKey,
    overlayToken: decodeURIComponent(overlayUrl.split("/overlay/")[1]!),
  };
  const doc = (await (await h.request("/docs/json")).json()) as { paths: Record<string, object> };
  routes = Object.entries(doc.paths).flatMap(([template, operations]) =>
    Object.keys(operations)
      .filter((method) => (METHODS as readonly string[]).includes(method))
      .map((method) => ({ method: method.toUpperCase(), template })),
  );
});

afterAll(async () => {
  await server.stop(1000);
  await h.stop();
});

/** The credentials a route takes, by where it lives (a wrong one would stop the request at a 401). */
function headersFor(template: string): Record<string, string> {
  if (template.startsWith("/api/overlay") || template.startsWith("/overlay/")) {
    return { "x-overlay-token": credentials.overlayToken };
  }
  if (
    template.startsWith("/api/dashboard") ||
    template.startsWith("/api/system") ||
    template.startsWith("/auth")
  ) {
    return { cookie: credentials.cookie, origin: h.origin, "content-type": "application/json" };
  }
  return { "x-api-key": credentials.apiKey };
}

/** Every way of writing the route with one hostile value: each parameter in turn, and all of them. */
function pathsOf(template: string, value: string): string[] {
  const names = template.match(/\{[^}]+\}/g) ?? [];
  const one = names.map((name) => template.replace(name, value).replace(/\{[^}]+\}/g, "abc"));
  const all = template.replace(/\{[^}]+\}/g, value);
  return names.length === 0 ? [`${template.replace(/\/$/, "")}/${value}`] : [...one, all, `${all}/`];
}

interface Failure {
  request: string;
  status: number;
  body: string;
}

/** The contract's error body: exactly a status and a code with a message. */
function isErrorBody(body: string, status: number): boolean {
  try {
    const parsed = JSON.parse(body) as { status?: unknown; error?: { code?: unknown; message?: unknown } };
    const keys = `${Object.keys(parsed)}|${Object.keys(parsed.error ?? {})}`;
    const code = typeof parsed.error?.code === "string" && /^[a-z_]+$/.test(parsed.error.code);
    return parsed.status === status && keys === "status,error|code,message" && code;
  } catch {
    return false;
  }
}

async function check(request: string, response: Response, failures: Failure[]): Promise<void> {
  const body = await response.text();
  const json = (response.headers.get("content-type") ?? "").startsWith("application/json");
  const refusedWithoutErrorBody = response.status >= 400 && json && !isErrorBody(body, response.status);
  if (response.status >= 500 || refusedWithoutErrorBody) {
    failures.push({ request, status: response.status, body: body.slice(0, 200) });
  }
}

describe("malformed percent-encodings in a path never make a 5xx", () => {
  test("every route, every parameter, every broken escape: a 4xx (or an answer), never a 5xx", async () => {
    expect(routes.length).toBeGreaterThan(40);
    const failures: Failure[] = [];
    for (const { method, template } of routes) {
      const headers = headersFor(template);
      const body = method === "GET" || method === "DELETE" ? undefined : "{}";
      for (const value of MALFORMED) {
        for (const path of pathsOf(template, value)) {
          const request = `${method} ${path}`;
          await check(request, await h.request(path, { method, headers, body }), failures);
          await check(
            `socket ${request}`,
            await fetch(`${server.url}${path}`, { method, headers, body }),
            failures,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  test("GET /overlay/%/ is a 400 that names the path parameter", async () => {
    const res = await h.request("/overlay/%/");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      status: 400,
      error: { code: "bad_request", message: 'The path parameter "token" is not valid URL encoding.' },
    });
  });
});
