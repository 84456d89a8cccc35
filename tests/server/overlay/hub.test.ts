// The overlay hub with a bus between instances (Redis in production, a stand-in here): a publish is
// handed to this instance's overlays once, and never an older state after a newer one.
import { describe, expect, test } from "bun:test";
import type { StoredOverlayState } from "../../../db/overlay.ts";
import { type OverlayBus, OverlayHub } from "../../../server/overlay/hub.ts";

const state = (version: number): StoredOverlayState => ({
  state: { v: version },
  version,
  updatedAt: version,
});

/** A bus that hears every send, and can be told to answer the send too late (after delivering it). */
function loopbackBus(options: { lateAnswer?: boolean } = {}) {
  let handler: Parameters<OverlayBus["listen"]>[0] = () => {};
  const bus: OverlayBus = {
    async send(accountId, sent) {
      handler({ accountId, state: sent });
      if (options.lateAnswer) throw new Error("no answer within 250 ms");
    },
    listen(h) {
      handler = h;
    },
  };
  return {
    bus,
    hear: (accountId: number, heard: StoredOverlayState) => handler({ accountId, state: heard }),
  };
}

describe("OverlayHub with a bus", () => {
  test("a publish whose bus answer came too late reaches the overlays once, not twice", async () => {
    const { bus } = loopbackBus({ lateAnswer: true });
    const hub = new OverlayHub({ bus });
    const seen: number[] = [];
    hub.subscribe(1, (s) => seen.push(s.version));
    hub.publish(1, state(4));
    await Bun.sleep(0);
    expect(seen).toEqual([4]);
  });

  test("an older state arriving after a newer one is not handed on", () => {
    const { bus, hear } = loopbackBus();
    const hub = new OverlayHub({ bus });
    const seen: number[] = [];
    hub.subscribe(1, (s) => seen.push(s.version));
    hear(1, state(6));
    hear(1, state(5));
    hear(1, state(7));
    expect(seen).toEqual([6, 7]);
  });

  test("an overlay that was just sent the stored state is not then handed an older one from the bus", () => {
    const { bus, hear } = loopbackBus();
    const hub = new OverlayHub({ bus });
    const seen: number[] = [];
    hub.subscribe(1, (s) => seen.push(s.version), 8);
    hear(1, state(7));
    hear(1, state(9));
    expect(seen).toEqual([9]);
  });
});
