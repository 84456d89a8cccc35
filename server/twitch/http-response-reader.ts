/**
 * Reads one HTTP/1.1 response from a socket's bytes as they come (server/twitch/keep-alive-fetch.ts):
 * the status line and headers, then a body sized by Content-Length, sent in chunks, or running to the
 * close. Throws on bytes that are not HTTP, so the socket is never reused out of step.
 */

export interface ReadResponse {
  status: number;
  statusText: string;
  headers: Headers;
  body: string;
  /** The socket may carry the next request. */
  keepAlive: boolean;
}

const HEAD_END = Buffer.from("\r\n\r\n");
const CRLF = Buffer.from("\r\n");
/** A head larger than this is not an answer from Helix. */
const MAX_HEAD = 64 * 1024;

type Framing = { kind: "length"; length: number } | { kind: "chunked" } | { kind: "close" };

export class HttpResponseReader {
  #buffer: Buffer = Buffer.alloc(0);
  #head: Omit<ReadResponse, "body"> | null = null;
  #framing: Framing | null = null;
  readonly #chunks: Buffer[] = [];

  constructor(private readonly noBody = false) {}

  /** Takes the next bytes; the response once it is complete (null while more is needed). */
  push(chunk: Uint8Array): ReadResponse | null {
    this.#buffer = this.#buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.#buffer, chunk]);
    // A 1xx is interim (100 Continue, 103 Early Hints): the final answer follows on the same socket.
    while (!this.#head) {
      if (!this.#readHead()) return null;
    }
    return this.#readBody();
  }

  /** The peer closed: a body that runs to the close is complete now; anything else is cut short (null). */
  end(): ReadResponse | null {
    if (!this.#head || this.#framing?.kind !== "close") return null;
    this.#chunks.push(this.#buffer);
    return { ...this.#head, body: Buffer.concat(this.#chunks).toString("utf8"), keepAlive: false };
  }

  /** Reads the head once all of it is there (false before); leaves #head null after a 1xx. */
  #readHead(): boolean {
    const end = this.#buffer.indexOf(HEAD_END);
    if (end === -1) {
      if (this.#buffer.length > MAX_HEAD) throw new Error("the answer's head is too large");
      return false;
    }
    const lines = this.#buffer.subarray(0, end).toString("latin1").split("\r\n");
    this.#buffer = this.#buffer.subarray(end + HEAD_END.length);
    const status = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/.exec(lines[0] ?? "");
    if (!status) throw new Error("the answer is not HTTP/1.x");
    const code = Number(status[2]);
    if (code >= 100 && code < 200 && code !== 101) return true;
    // Response() refuses any other status (101 included: nothing here upgrades).
    if (code < 200 || code > 599) throw new Error(`the answer's status ${code} is not one fetch can return`);
    const headers = new Headers();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0) throw new Error("a header line of the answer is malformed");
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    const connection = headers.get("connection")?.toLowerCase() ?? "";
    const http10 = status[1] === "0";
    this.#framing = this.#framingOf(code, headers);
    this.#head = {
      status: code,
      statusText: status[3] ?? "",
      headers,
      keepAlive:
        this.#framing.kind !== "close" &&
        !connection.includes("close") &&
        (!http10 || connection.includes("keep-alive")),
    };
    return true;
  }

  #framingOf(status: number, headers: Headers): Framing {
    if (this.noBody || status === 204 || status === 304) return { kind: "length", length: 0 };
    if (headers.get("transfer-encoding")?.toLowerCase().includes("chunked")) return { kind: "chunked" };
    const length = headers.get("content-length");
    if (length === null) return { kind: "close" };
    // Headers joins repeated fields with ", ": the same length twice is allowed (RFC 9110 §8.6).
    const values = new Set(length.split(",").map((value) => value.trim()));
    const [only] = values;
    if (values.size !== 1 || !only || !/^\d+$/.test(only))
      throw new Error("the answer's Content-Length is malformed");
    return { kind: "length", length: Number(only) };
  }

  #readBody(): ReadResponse | null {
    const framing = this.#framing!;
    if (framing.kind === "close") return null;
    if (framing.kind === "chunked") return this.#readChunks();
    if (this.#buffer.length < framing.length) return null;
    return this.#done(this.#buffer.subarray(0, framing.length), this.#buffer.length - framing.length);
  }

  /**
   * The answer with `body`. Bytes after it were never asked for (no pipelining here): the answer is
   * whole, but the socket is out of step, so it is not reused.
   */
  #done(body: Buffer, extra: number): ReadResponse {
    const head = this.#head!;
    return { ...head, body: body.toString("utf8"), keepAlive: head.keepAlive && extra === 0 };
  }

  /** Chunked transfer: size line (extensions after ";" ignored), data, CRLF; size 0, trailers, CRLF. */
  #readChunks(): ReadResponse | null {
    for (;;) {
      const lineEnd = this.#buffer.indexOf(CRLF);
      if (lineEnd === -1) return null;
      const sizeText = this.#buffer.subarray(0, lineEnd).toString("latin1").split(";")[0]!.trim();
      if (!/^[0-9a-fA-F]+$/.test(sizeText)) throw new Error("a chunk size of the answer is malformed");
      const size = Number.parseInt(sizeText, 16);
      if (size === 0) return this.#readTrailers(lineEnd);
      const dataStart = lineEnd + CRLF.length;
      const dataEnd = dataStart + size;
      if (this.#buffer.length < dataEnd + CRLF.length) return null;
      if (!this.#buffer.subarray(dataEnd, dataEnd + CRLF.length).equals(CRLF))
        throw new Error("a chunk of the answer is longer than its size");
      this.#chunks.push(Buffer.from(this.#buffer.subarray(dataStart, dataEnd)));
      this.#buffer = this.#buffer.subarray(dataEnd + CRLF.length);
    }
  }

  /** After the last chunk's size line: trailer lines (ignored) up to an empty line. */
  #readTrailers(lineEnd: number): ReadResponse | null {
    // Searching from the size line's own CRLF finds the empty line whether trailers come or not.
    const end = this.#buffer.indexOf(HEAD_END, lineEnd);
    if (end === -1) return null;
    return this.#done(Buffer.concat(this.#chunks), this.#buffer.length - end - HEAD_END.length);
  }
}
