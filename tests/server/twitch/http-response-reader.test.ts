import { describe, expect, test } from "bun:test";
import { HttpResponseReader, type ReadResponse } from "../../../server/twitch/http-response-reader.ts";

/**
 * The response parser under keep-alive-fetch.ts, fed bytes the way a socket delivers them: whole,
 * split at every byte boundary, or byte by byte. Whatever the split, the answer must be the same.
 */

const bytes = (text: string) => Buffer.from(text, "utf8");

/** Pushes `parts` in order; the answer from the last push (the earlier ones must need more bytes). */
function read(parts: Uint8Array[], noBody = false): ReadResponse | null {
  const reader = new HttpResponseReader(noBody);
  let answer: ReadResponse | null = null;
  for (const [index, part] of parts.entries()) {
    answer = reader.push(part);
    if (answer && index < parts.length - 1)
      throw new Error(`complete after part ${index} of ${parts.length}`);
  }
  return answer;
}

/** Every way to cut `raw` in two, plus one byte at a time: each must give `check`'s answer. */
function everySplit(raw: string, check: (answer: ReadResponse | null) => void): void {
  const all = bytes(raw);
  check(read([all]));
  for (let cut = 1; cut < all.length; cut++) check(read([all.subarray(0, cut), all.subarray(cut)]));
  check(read([...all].map((byte) => Uint8Array.of(byte))));
}

describe("HttpResponseReader", () => {
  test("a Content-Length body, split anywhere, Unicode cut mid-character included", () => {
    const body = '{"message":"héllo 👋"}';
    const raw = `HTTP/1.1 200 OK\r\ncontent-TYPE: application/json\r\nContent-Length: ${bytes(body).length}\r\n\r\n${body}`;
    everySplit(raw, (answer) => {
      expect(answer?.status).toBe(200);
      expect(answer?.statusText).toBe("OK");
      expect(answer?.headers.get("Content-Type")).toBe("application/json");
      expect(answer?.body).toBe(body);
      expect(answer?.keepAlive).toBe(true);
    });
  });

  test("chunked with extensions and trailers, split anywhere", () => {
    const raw =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n" +
      "5;name=value\r\nhello\r\n" +
      "8\r\n, wörld\r\n" +
      "0\r\nX-Trailer: yes\r\nX-Other: too\r\n\r\n";
    everySplit(raw, (answer) => {
      expect(answer?.body).toBe("hello, wörld");
      expect(answer?.keepAlive).toBe(true);
    });
  });

  test("chunked without trailers, sizes in upper-case hex", () => {
    const data = "x".repeat(0x1a);
    everySplit(
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1A\r\n${data}\r\n0\r\n\r\n`,
      (answer) => {
        expect(answer?.body).toBe(data);
      },
    );
  });

  test("a body without length runs to the close", () => {
    const reader = new HttpResponseReader();
    expect(reader.push(bytes("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\npart one, "))).toBeNull();
    expect(reader.push(bytes("part two"))).toBeNull();
    const answer = reader.end();
    expect(answer?.body).toBe("part one, part two");
    expect(answer?.keepAlive).toBe(false);
  });

  test("an answer cut short by the close is no answer", () => {
    const length = new HttpResponseReader();
    length.push(bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort"));
    expect(length.end()).toBeNull();
    const chunked = new HttpResponseReader();
    chunked.push(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"));
    expect(chunked.end()).toBeNull();
    const head = new HttpResponseReader();
    head.push(bytes("HTTP/1.1 200 OK\r\n"));
    expect(head.end()).toBeNull();
  });

  test("204, 304 and HEAD have no body whatever their headers say", () => {
    expect(read([bytes("HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")])?.body).toBe("");
    expect(read([bytes("HTTP/1.1 304 Not Modified\r\n\r\n")])?.keepAlive).toBe(true);
    const head = read([bytes("HTTP/1.1 200 OK\r\nContent-Length: 42\r\n\r\n")], true);
    expect(head?.body).toBe("");
    expect(head?.headers.get("content-length")).toBe("42");
    expect(head?.keepAlive).toBe(true);
  });

  test("interim 1xx answers are skipped for the final one", () => {
    everySplit(
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
      (answer) => {
        expect(answer?.status).toBe(201);
        expect(answer?.body).toBe("ok");
      },
    );
  });

  test("Connection: close and HTTP/1.0 end the socket's use; HTTP/1.0 keep-alive does not", () => {
    expect(
      read([bytes("HTTP/1.1 200 OK\r\nConnection: Close\r\nContent-Length: 0\r\n\r\n")])?.keepAlive,
    ).toBe(false);
    expect(read([bytes("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")])?.keepAlive).toBe(false);
    const kept = read([bytes("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n")]);
    expect(kept?.keepAlive).toBe(true);
  });

  test("bytes past the end of the answer: the answer stands, the socket is not reused", () => {
    const length = read([bytes("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA")]);
    expect(length?.body).toBe("ok");
    expect(length?.keepAlive).toBe(false);
    const chunked = read([
      bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\nHTTP/1.1"),
    ]);
    expect(chunked?.body).toBe("ok");
    expect(chunked?.keepAlive).toBe(false);
  });

  test("a repeated identical Content-Length is one length", () => {
    const answer = read([bytes("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok")]);
    expect(answer?.body).toBe("ok");
  });

  const malformed: [string, string][] = [
    ["not HTTP", "garbage\r\n\r\n"],
    ["SSH banner", "SSH-2.0-OpenSSH_9.6\r\n\r\n"],
    ["a header without a colon", "HTTP/1.1 200 OK\r\nNoColon\r\n\r\n"],
    ["a status out of range", "HTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n"],
    ["a negative Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"],
    ["conflicting Content-Lengths", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok"],
    ["a chunk size that is not hex", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"],
    [
      "chunk data not followed by CRLF",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokXY0\r\n\r\n",
    ],
  ];
  for (const [name, raw] of malformed) {
    test(`throws on ${name}`, () => {
      expect(() => read([bytes(raw)])).toThrow();
    });
  }

  test("throws once a head grows past any Helix answer instead of buffering forever", () => {
    const reader = new HttpResponseReader();
    reader.push(bytes("HTTP/1.1 200 OK\r\n"));
    expect(() => reader.push(bytes(`X-Long: ${"a".repeat(70_000)}`))).toThrow();
  });
});
