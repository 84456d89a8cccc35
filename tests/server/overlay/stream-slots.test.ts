// Overlay streams held open from one address never keep another address's overlay from connecting
// (CONTRACT §6): over real sockets, each client bound to its own loopback address, as the server sees
// it without any proxy header.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import type { Account } from "../../../db/accounts.ts";
import { recordAlertEvent } from "../../../db/alerts.ts";
import { publishOverlayState } from "../../../db/overlay.ts";
import { defaultAlertSettings } from "../../../server/alerts/model.ts";
import { presentAlert } from "../../../server/alerts/present.ts";
import { sampleFields } from "../../../server/alerts/samples.ts";
import { listen, type RunningServer } from "../../../server/listen.ts";
import { MAX_OVERLAY_STREAMS } from "../../../server/overlay/routes-stream.ts";
import { StreamSlots } from "../../../server/overlay/stream-slots.ts";
import { createTestAccount, createTestContext, type TestContext } from "../../helpers/context.ts";

let t: TestContext;
let server: RunningServer;
let account: Account;
let token: string;
const sockets: Socket[] = [];
beforeEach(async () => {
  t = await createTestContext({
    configure: (c) => {
      c.port = 0;
    },
  });
  server = listen(t.ctx, t.app);
  ({ account, overlayToken: token } = await createTestAccount(t.ctx));
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server.stop(1000);
  await t.cleanup();
});

/** An SSE stream read on a raw socket whose local address is `from` (127.0.0.x reaches the server). */
class RawStream {
  readonly #socket: Socket;
  #received = "";
  #waiters: (() => void)[] = [];
  /** The socket closed. */
  ended = false;

  constructor(port: number, path: string, from: string) {
    this.#socket = connect({ port, host: "127.0.0.1", localAddress: from });
    sockets.push(this.#socket);
    this.#socket.setEncoding("utf8");
    this.#socket.on("data", (data: string) => this.#heard(data));
    this.#socket.on("close", () => {
      this.ended = true;
      this.#heard("");
    });
    this.#socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n`);
  }

  #heard(data: string): void {
    this.#received += data;
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Waits until what arrived matches (or the stream ended, or 3 s passed); whether it matched. */
  async until(pattern: RegExp): Promise<boolean> {
    const deadline = Date.now() + 3000;
    while (!pattern.test(this.#received) && !this.ended && Date.now() < deadline) {
      await Promise.race([new Promise<void>((wake) => this.#waiters.push(wake)), Bun.sleep(50)]);
    }
    return pattern.test(this.#received);
  }

  /** The response's status, once its head arrived. */
  async status(): Promise<number> {
    await this.until(/^HTTP\/1\.1 \d{3}/);
    return Number(this.#received.slice(9, 12));
  }

  /** The server ended the response (its last chunk came), or the connection. */
  async finished(): Promise<boolean> {
    return (await this.until(/\r\n0\r\n\r\n$/)) || this.ended;
  }

  get received(): string {
    return this.#received;
  }
}

/** `count` streams of `path` from `from`, each answered before the next opens (oldest first). */
async function openStreams(path: string, from: string, count: number): Promise<RawStream[]> {
  const streams: RawStream[] = [];
  for (let i = 0; i < count; i++) {
    const stream = new RawStream(server.port, path, from);
    expect(await stream.status()).toBe(200);
    expect(await stream.until(/retry: 3000/)).toBe(true);
    streams.push(stream);
  }
  return streams;
}

async function publishState(title: string): Promise<void> {
  const stored = await publishOverlayState(t.ctx.db, account.id, { title }, t.ctx.clock.now());
  t.ctx.overlays.publish(account.id, stored);
}

async function publishFollow(login: string): Promise<void> {
  const stored = await recordAlertEvent(t.ctx.db, {
    accountId: account.id,
    type: "follow",
    eventKey: crypto.randomUUID(),
    fields: { ...sampleFields("follow"), user: login },
    test: false,
    at: t.ctx.clock.now(),
  });
  t.ctx.alerts.publish(account.id, presentAlert(stored!, defaultAlertSettings("follow")));
}

const KINDS = [
  { kind: "state", path: "/api/overlay/events", publish: publishState },
  { kind: "alert", path: "/api/overlay/alerts", publish: publishFollow },
] as const;

describe("streams held open from one address never lock another address's overlay out", () => {
  for (const { kind, path, publish } of KINDS) {
    test(`${kind} stream: ${MAX_OVERLAY_STREAMS} from one address, then the streamer's connects and receives updates`, async () => {
      const url = `${path}?token=${token}`;
      const squatters = await openStreams(url, "127.0.0.9", MAX_OVERLAY_STREAMS);
      // The squatting address's own next stream is refused: its streams fill the cap.
      const refused = new RawStream(server.port, url, "127.0.0.9");
      expect(await refused.status()).toBe(429);
      expect(refused.received).toContain('"code":"too_many_overlays"');
      // The streamer's overlay, from another address, connects all the same…
      const overlay = new RawStream(server.port, url, "127.0.0.2");
      expect(await overlay.status()).toBe(200);
      // …by ending the squatters' oldest stream; the others stay open.
      expect(await squatters[0]!.finished()).toBe(true);
      expect(squatters.slice(1).some((stream) => /\r\n0\r\n\r\n$/.test(stream.received))).toBe(false);
      // And it receives what is published.
      await Bun.sleep(50);
      await publish("afterlockout");
      expect(await overlay.until(/afterlockout/)).toBe(true);
    }, 20_000);
  }
});

describe("stream slots", () => {
  test("at the cap, the oldest stream of the address holding the most is closed for a smaller one", () => {
    const slots = new StreamSlots(4);
    const closed: string[] = [];
    const open = (address: string, name: string) => {
      const slot = slots.claim(1, address);
      if (slot) slot.close = () => closed.push(name);
      return slot;
    };
    open("10.0.0.1", "a1");
    open("10.0.0.2", "b1");
    open("10.0.0.1", "a2");
    open("10.0.0.2", "b2");
    // Both hold two: a third from either is refused; a newcomer closes the older share's oldest.
    expect(open("10.0.0.1", "a3")).toBeNull();
    expect(open("10.0.0.3", "c1")).not.toBeNull();
    expect(closed).toEqual(["a1"]);
    // Another account has slots of its own.
    expect(slots.claim(2, "10.0.0.1")).not.toBeNull();
  });

  test("an IPv6 client counts by its /64: rotating addresses inside it gains nothing", () => {
    const slots = new StreamSlots(2);
    expect(slots.claim(1, "2001:db8:1:2::a")).not.toBeNull();
    expect(slots.claim(1, "2001:db8:1:2::b")).not.toBeNull();
    expect(slots.claim(1, "2001:db8:1:2::c")).toBeNull();
    expect(slots.claim(1, "2001:db8:9:9::1")).not.toBeNull();
  });

  test("a released slot is free again", () => {
    const slots = new StreamSlots(1);
    const slot = slots.claim(1, "10.0.0.1")!;
    expect(slots.claim(1, "10.0.0.1")).toBeNull();
    slots.release(1, slot);
    expect(slots.claim(1, "10.0.0.1")).not.toBeNull();
  });
});
