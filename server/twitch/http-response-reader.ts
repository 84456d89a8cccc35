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
    if (!this.#head && !this.#readHead()) return null;
    return this.#readBody();
  }

  /** The peer closed: a body that runs to the close is complete now; anything else is cut short (null). */
  end(): ReadResponse | null {
    if (!this.#head || this.#framing?.kind !== "close") return null;
    this.#chunks.push(this.#buffer);
    return { ...this.#head, body: Buffer.concat(this.#chunks).toString("utf8"), keepAlive: false };
  }

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
    const headers = new Headers();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0) throw new Error("a header line of the answer is malformed");
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    const code = Number(status[2]);
    const connection = headers.get("connection")?.toLowerCase() ?? "";
    const http10 = status[1] === "0";
    this.#framing = this.#framingOf(code, headers);
    this.#head = {
      status: code,
      statusText: status[3] ?? "",
      headers,
      keepAlive:
        this.#framing.kind !== "close" && !connection.includes("close") && (!http10 || connection.includes("keep-alive")),
    };
    return true;
  }

  #framingOf(status: number, headers: Headers): Framing {
    if (this.noBody || status === 204 || status === 304 || (status >= 100 && status < 200))
      return { kind: "length", length: 0 };
    if (headers.get("transfer-encoding")?.toLowerCase().includes("chunked")) return { kind: "chunked" };
    const length = headers.get("content-length");
    if (length === null) return { kind: "close" };
    if (!/^\d+$/.test(length)) throw new Error("the answer's Content-Length is malformed");
    return { kind: "length", length: Number(length) };
  }

  #readBody(): ReadResponse | null {
    const head = this.#head!;
    const framing = this.#framing!;
    if (framing.kind === "close") return null;
    if (framing.kind === "length") {
      if (this.#buffer.length < framing.length) return null;
      if (this.#buffer.length > framing.length) throw new Error("the answer ran past its Content-Length");
      return { ...head, body: this.#buffer.toString("utf8") };
    }
    return this.#readChunks(head);
  }

  /** Chunked transfer: size line, data, CRLF; a zero size ends it (after optional trailers). */
  #readChunks(head: Omit<ReadResponse, "body">): ReadResponse | null {
    for (;;) {
      const lineEnd = this.#buffer.indexOf(CRLF);
      if (lineEnd === -1) return null;
      const sizeText = this.#buffer.subarray(0, lineEnd).toString("latin1").split(";")[0]!.trim();
      if (!/^[0-9a-fA-F]+$/.test(sizeText)) throw new Error("a chunk size of the answer is malformed");
      const size = Number.parseInt(sizeText, 16);
      if (size === 0) {
        const trailerEnd = this.#buffer.indexOf(CRLF, lineEnd + CRLF.length);
        if (trailerEnd === -1) return null;
        // Trailers (rare) end with an empty line; without any, the CRLF follows the size line at once.
        const done = trailerEnd === lineEnd + CRLF.length ? trailerEnd : this.#buffer.indexOf(HEAD_END, lineEnd);
        if (done === -1) return null;
        return { ...head, body: Buffer.concat(this.#chunks).toString("utf8") };
      }
      const dataStart = lineEnd + CRLF.length;
      if (this.#buffer.length < dataStart + size + CRLF.length) return null;
      this.#chunks.push(Buffer.from(this.#buffer.subarray(dataStart, dataStart + size)));
      this.#buffer = this.#buffer.subarray(dataStart + size + CRLF.length);
    }
  }
}
