/**
 * One game answer as it is sent: the record, whether stale data stood in, and its bodies, each
 * serialised on first ask and then kept with the answer (records.ts keeps the answer with the cache
 * entry it came from), with a strong entity tag of its bytes for conditional requests.
 */

/** A body ready to send and the strong entity tag of exactly these bytes. */
export interface Serialised {
  body: string;
  etag: string;
}

function serialised(body: string): Serialised {
  // 64 bits of wyhash and the length: a changed body gets a changed tag (a tag is compared per URL).
  return { body, etag: `"${Bun.hash(body).toString(36)}-${body.length.toString(36)}"` };
}

export class GameAnswer<D extends { text: string } = { text: string }> {
  #json: Serialised | undefined;
  #line: Serialised | undefined;

  constructor(
    /** The record (CONTRACT §6). Shared by every request it answers: never changed. */
    readonly data: D,
    /** Served from the cache after the provider failed: the JSON body says `stale: true`. */
    readonly stale: boolean,
  ) {}

  /** `{"status":200,"data":…}`, byte for byte what a route's `{status, data}` reply serialises to. */
  json(): Serialised {
    this.#json ??= serialised(
      JSON.stringify({ status: 200, data: this.stale ? { ...this.data, stale: true } : this.data }),
    );
    return this.#json;
  }

  /** The chat line, shaped by the text mode's one-line rule (`shape`, the same function every time). */
  line(shape: (text: string) => string): Serialised {
    this.#line ??= serialised(shape(this.data.text));
    return this.#line;
  }
}
