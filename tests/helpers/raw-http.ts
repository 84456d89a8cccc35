import { connect } from "node:net";

/**
 * HTTP/1.1 over a plain socket, for what fetch cannot send: a chunked body in pieces, a malformed
 * request line or header. The parts are written in order (a pause between them, so a server that
 * answers early is seen doing so), and the first response on the connection is read.
 */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: string;
  /** Whether the server closed the connection (after its answer, or without one). */
  closed: boolean;
}

export function chunk(text: string): string {
  return `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
}

export const LAST_CHUNK = "0\r\n\r\n";

function parseResponse(raw: string, closed: boolean): RawResponse {
  const headEnd = raw.indexOf("\r\n\r\n");
  const head = headEnd === -1 ? raw : raw.slice(0, headEnd);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const length = Number(headers.get("content-length") ?? 0);
  const body = headEnd === -1 ? "" : Buffer.from(raw.slice(headEnd + 4), "latin1").subarray(0, length);
  return {
    status: Number(statusLine.split(" ")[1] ?? 0),
    headers,
    body: body.toString("utf8"),
    closed,
  };
}

/** Sends the parts on one connection and resolves with the first response (or none, status 0). */
export function rawRequest(
  port: number,
  parts: string[],
  options: { pauseMs?: number } = {},
): Promise<RawResponse> {
  const pauseMs = options.pauseMs ?? 2;
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(parseResponse(received, closed));
    };
    socket.setEncoding("latin1");
    socket.on("data", (data: string) => {
      received += data;
      const response = parseResponse(received, false);
      const headEnd = received.indexOf("\r\n\r\n");
      const complete =
        headEnd !== -1 &&
        Buffer.byteLength(received.slice(headEnd + 4), "latin1") >=
          Number(response.headers.get("content-length") ?? 0);
      // Wait a moment after a complete answer to learn whether the server closes the connection.
      if (complete) setTimeout(() => finish(socket.readyState !== "open"), 50);
    });
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
    void (async () => {
      for (const part of parts) {
        if (done || socket.destroyed) return;
        socket.write(part, "latin1");
        await Bun.sleep(pauseMs);
      }
    })();
    setTimeout(() => finish(false), 5000);
  });
}
