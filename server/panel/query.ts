import { requestInfo } from "../http/request-info.ts";

/**
 * A query parameter as every route reads it (server/http/query-params.ts): its first value when it
 * repeats, undefined when absent. Elysia's parsed `query` would hand over the last value.
 */
export function firstValue(request: Request, name: string): string | undefined {
  return requestInfo(request).query.get(name) ?? undefined;
}
