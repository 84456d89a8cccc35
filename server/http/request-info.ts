import { QueryParams } from "./query-params.ts";

/**
 * What several layers want to know about one request, worked out once: its path, its query, and
 * whether it is answered in text mode. Parsing the URL in each layer cost more than some whole
 * routes; this keeps one parse per request.
 *
 * The record rides on the Request itself (a private symbol), so any layer that has the request has
 * it, and it goes away with the request.
 */
export class RequestInfo {
  readonly path: string;
  readonly #url: string;
  readonly #queryStart: number;
  #query: QueryParams | undefined;
  /** Set on first use by the text-mode check. */
  textMode: boolean | undefined;

  constructor(url: string) {
    // `scheme://host/path?query`: the path starts at the first "/" after the "//" of the authority.
    const start = url.indexOf("/", url.indexOf("//") + 2);
    const queryStart = start === -1 ? -1 : url.indexOf("?", start);
    this.path = start === -1 ? "/" : url.substring(start, queryStart === -1 ? undefined : queryStart);
    this.#url = url;
    this.#queryStart = queryStart;
  }

  /** The query parameters (parsed on first use). */
  get query(): QueryParams {
    this.#query ??= new QueryParams(this.#queryStart === -1 ? "" : this.#url.substring(this.#queryStart + 1));
    return this.#query;
  }

  /** The query as sent, with its "?" ("" when there is none). */
  get search(): string {
    return this.hasQuery ? this.#url.substring(this.#queryStart) : "";
  }

  /** Whether the URL has a query string at all (no parse needed to say no). */
  get hasQuery(): boolean {
    return this.#queryStart !== -1 && this.#queryStart < this.#url.length - 1;
  }
}

const INFO = Symbol("cuebot.requestInfo");

type Annotated = Request & { [INFO]?: RequestInfo };

export function requestInfo(request: Request): RequestInfo {
  const annotated = request as Annotated;
  let info = annotated[INFO];
  if (info === undefined) {
    info = new RequestInfo(request.url);
    annotated[INFO] = info;
  }
  return info;
}
