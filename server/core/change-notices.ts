import { timingSafeEqual } from "node:crypto";
import type { Socket, TCPSocketListener } from "bun";
import { type NoticeAddress, noticeAddresses } from "../instance-registry.ts";

/**
 * How an admin command tells the servers running on its data folder that it changed the database:
 * after its commit it connects to each one's loopback notice port (named, with a token, in the
 * server's `run/` file) and sends the token; the server looks for outside changes at once (its caches
 * drop what changed) and answers `ok`, and only then does the command exit. So the very next request
 * after the command is served with the change, and a server alone on its SQLite file need not ask
 * SQLite on every request (`PRAGMA data_version` costs ~1.4 µs and three system calls a request).
 */

const ACK = "ok\n";
/** The longest a command waits for one server's answer; a server that does not answer looks anyway. */
export const NOTICE_TIMEOUT_MS = 5_000;
/** A notice is one token line: anything longer is not one. */
const MAX_LINE = 128;

export interface NoticeListener {
  address: NoticeAddress;
  stop(): void;
}

function sameToken(presented: string, token: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Listens on 127.0.0.1 (any free port) for notices; `onNotice` runs synchronously before the answer.
 * Null when the port cannot be opened (the server then asks SQLite on every request instead).
 */
export function listenForNotices(onNotice: () => void): NoticeListener | null {
  const token = crypto.randomUUID();
  let listener: TCPSocketListener<{ line: string }>;
  try {
    listener = Bun.listen<{ line: string }>({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open(socket) {
          socket.data = { line: "" };
        },
        data(socket, chunk) {
          socket.data.line += chunk.toString();
          const end = socket.data.line.indexOf("\n");
          if (end === -1 && socket.data.line.length <= MAX_LINE) return;
          if (end !== -1 && sameToken(socket.data.line.slice(0, end), token)) {
            onNotice();
            socket.write(ACK);
          }
          socket.end();
        },
        error() {},
      },
    });
  } catch {
    return null;
  }
  return { address: { port: listener.port, token }, stop: () => listener.stop(true) };
}

/** Sends one notice and waits for its answer (or the timeout, or a refusal: the server is gone). */
async function notify(address: NoticeAddress): Promise<void> {
  let settle = () => {};
  const answered = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const timer = setTimeout(() => settle(), NOTICE_TIMEOUT_MS);
  let socket: Socket | null = null;
  try {
    socket = await Bun.connect({
      hostname: "127.0.0.1",
      port: address.port,
      socket: {
        open(s) {
          s.write(`${address.token}\n`);
        },
        data() {
          settle();
        },
        close() {
          settle();
        },
        error() {
          settle();
        },
        connectError() {
          settle();
        },
      },
    });
    await answered;
  } catch {
    // refused: no server listens there any more
  } finally {
    clearTimeout(timer);
    socket?.end();
  }
}

/** Tells every server running on `dataDir` (this host) that the database changed; settles once all answered. */
export async function noticeChanges(dataDir: string): Promise<void> {
  await Promise.all(noticeAddresses(dataDir).map(notify));
}
