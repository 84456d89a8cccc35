// The alert hub: each open overlay is handed each alert once, in id order after a catch-up, never one
// at or below the id it had already shown; with a bus (a stand-in here) the bus's echo and a late
// answer do not double an alert, and after the bus was away the last minute is offered again.
import { describe, expect, test } from "bun:test";
import type { Alert } from "../../../server/alerts/model.ts";
import { type AlertBus, AlertFeed, AlertHub } from "../../../server/overlay/alert-hub.ts";

const alert = (id: number, user = `viewer${id}`): Alert => ({
  id,
  type: "follow",
  fields: { user, amount: null, months: null, tier: null, reward: null, message: null },
  at: 1000 + id,
  test: false,
  text: `${user} just followed!`,
  durationMs: 6000,
  imageId: null,
  soundId: null,
  volume: 80,
});

function loopbackBus(options: { lateAnswer?: boolean; down?: boolean } = {}) {
  let handler: Parameters<AlertBus["listen"]>[0] = () => {};
  const bus: AlertBus = {
    async send(accountId, sent) {
      if (options.down) throw new Error("Redis is away");
      handler({ accountId, alert: sent });
      if (options.lateAnswer) throw new Error("no answer within 250 ms");
    },
    listen(h) {
      handler = h;
    },
  };
  return { bus, hear: (message: Parameters<typeof handler>[0]) => handler(message) };
}

function listen(hub: AlertHub, accountId: number, options: { after?: number; hold?: boolean } = {}) {
  const seen: number[] = [];
  const feed = new AlertFeed((a) => seen.push(a.id), options);
  const stop = hub.subscribe(accountId, feed);
  return { seen, feed, stop };
}

describe("AlertHub without a bus", () => {
  test("an alert reaches every open overlay of its account, and only of its account", () => {
    const hub = new AlertHub();
    const a = listen(hub, 1);
    const b = listen(hub, 1);
    const other = listen(hub, 2);
    hub.publish(1, alert(5));
    expect(a.seen).toEqual([5]);
    expect(b.seen).toEqual([5]);
    expect(other.seen).toEqual([]);
    expect(hub.connections(1)).toBe(2);
    expect(hub.connections()).toBe(3);
    a.stop();
    b.stop();
    expect(hub.connections(1)).toBe(0);
  });

  test("the same alert published twice is handed on once; ids at or below Last-Event-ID never", () => {
    const hub = new AlertHub();
    const fresh = listen(hub, 1);
    const reconnected = listen(hub, 1, { after: 6 });
    for (const id of [5, 5, 6, 7, 7]) hub.publish(1, alert(id));
    expect(fresh.seen).toEqual([5, 6, 7]);
    expect(reconnected.seen).toEqual([7]);
  });

  test("a held feed gets the catch-up and what arrived meanwhile, each once, oldest first", () => {
    const hub = new AlertHub();
    const held = listen(hub, 1, { after: 2, hold: true });
    hub.publish(1, alert(9));
    hub.publish(1, alert(8));
    expect(held.seen).toEqual([]);
    held.feed.release([alert(2), alert(3), alert(8), alert(4)]);
    expect(held.seen).toEqual([3, 4, 8, 9]);
    hub.publish(1, alert(10));
    hub.publish(1, alert(4));
    expect(held.seen).toEqual([3, 4, 8, 9, 10]);
  });

  test("a listener that throws does not keep the alert from the others", () => {
    const hub = new AlertHub();
    hub.subscribe(
      1,
      new AlertFeed(() => {
        throw new Error("stream closed");
      }),
    );
    const ok = listen(hub, 1);
    hub.publish(1, alert(1));
    expect(ok.seen).toEqual([1]);
  });

  test("shutdown ends every stream that asked to be told", () => {
    const hub = new AlertHub();
    let ended = 0;
    hub.onShutdown(() => ended++);
    const forget = hub.onShutdown(() => ended++);
    forget();
    hub.shutdown();
    expect(ended).toBe(1);
  });
});

describe("AlertHub with a bus", () => {
  test("the bus's echo of an alert whose answer came too late reaches the overlays once", async () => {
    const { bus } = loopbackBus({ lateAnswer: true });
    const hub = new AlertHub({ bus });
    const a = listen(hub, 1);
    hub.publish(1, alert(4));
    await Bun.sleep(0);
    expect(a.seen).toEqual([4]);
  });

  test("with the bus away, this instance's overlays still get the alert, and the error is told", async () => {
    const errors: unknown[] = [];
    const { bus } = loopbackBus({ down: true });
    const hub = new AlertHub({ bus, onBusError: (error) => errors.push(error) });
    const a = listen(hub, 1);
    hub.publish(1, alert(3));
    await Bun.sleep(0);
    expect(a.seen).toEqual([3]);
    expect(errors).toHaveLength(1);
  });

  test("alerts heard from other instances; after the bus was away the last minute is offered, none twice", async () => {
    const { bus, hear } = loopbackBus();
    const asked: number[] = [];
    const hub = new AlertHub({
      bus,
      recent: async (accountId) => {
        asked.push(accountId);
        return [alert(12), alert(11), alert(10)];
      },
    });
    const a = listen(hub, 1);
    const reconnected = listen(hub, 1, { after: 11 });
    hear({ accountId: 1, alert: alert(10) });
    hear({ accountId: 9, alert: alert(99) });
    hear(null);
    await Bun.sleep(0);
    expect(asked).toEqual([1]);
    expect(a.seen).toEqual([10, 11, 12]);
    expect(reconnected.seen).toEqual([12]);
  });

  test("a failed catch-up after the bus was away is told, not thrown", async () => {
    const { bus, hear } = loopbackBus();
    const errors: unknown[] = [];
    const hub = new AlertHub({
      bus,
      recent: async () => {
        throw new Error("database away");
      },
      onBusError: (error) => errors.push(error),
    });
    listen(hub, 1);
    hear(null);
    await Bun.sleep(0);
    expect(errors).toHaveLength(1);
  });
});

describe("AlertFeed", () => {
  test("remembers enough ids for far more than a minute of alerts", () => {
    const seen: number[] = [];
    const feed = new AlertFeed((a) => seen.push(a.id));
    for (let id = 1; id <= 400; id++) feed.offer(alert(id));
    for (let id = 1; id <= 400; id++) feed.offer(alert(id));
    expect(seen).toHaveLength(400);
  });
});
