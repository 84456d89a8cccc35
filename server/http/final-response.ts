/** What Elysia collects for a response on the way (`set`): headers, and a status. */
export interface ResponseSet {
  headers: Record<string, unknown> | Headers;
  status?: number | string;
}

/**
 * Hands Elysia a finished Response, built once. Elysia rebuilds a returned Response (new Headers,
 * new Response) whenever `set` still carries headers or a status other than 200; so the headers
 * gathered in `set` on the way (security headers, rate-limit counters, cookies) go into the one
 * Response built here, and `set` is left empty, which makes Elysia send the Response as it is.
 */
export function finalResponse(
  set: ResponseSet,
  build: (carried: Record<string, string>) => Response,
): Response {
  const carried: Record<string, string> = {};
  const cookies: string[] = [];
  const collect = (key: string, value: unknown) => {
    if (value === undefined) return;
    const name = key.toLowerCase();
    if (name === "content-type") return;
    if (name === "set-cookie") {
      if (Array.isArray(value)) for (const cookie of value) cookies.push(String(cookie));
      else cookies.push(String(value));
      return;
    }
    carried[key] = String(value);
  };
  if (set.headers instanceof Headers) {
    for (const [key, value] of set.headers) if (key !== "set-cookie") collect(key, value);
    cookies.push(...set.headers.getSetCookie());
  } else {
    for (const key in set.headers) collect(key, set.headers[key]);
  }
  const response = build(carried);
  for (const cookie of cookies) response.headers.append("set-cookie", cookie);
  set.headers = {};
  set.status = 200;
  return response;
}
