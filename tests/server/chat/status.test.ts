import { describe, expect, test } from "bun:test";
import { ChatHandle, type ChatRuntime } from "../../../server/chat/status.ts";

/** A live runtime that says which one it is through the channels it reports connected. */
function liveRuntime(accountId: number): ChatRuntime {
  return {
    status: () => Promise.reject(new Error("not asked here")),
    sync: () => Promise.resolve(),
    connected: () => [{ accountId, since: 0 }],
    close: () => Promise.resolve(),
  };
}

describe("the context's chat handle", () => {
  const store = {} as ConstructorParameters<typeof ChatHandle>[0];

  test("answers from the live runtime while it is in use, from the store once it is released", () => {
    const handle = new ChatHandle(store);
    expect(handle.connected()).toEqual([]);
    const live = liveRuntime(1);
    handle.useLive(live);
    expect(handle.connected()).toEqual([{ accountId: 1, since: 0 }]);
    handle.release(live);
    expect(handle.connected()).toEqual([]);
  });

  test("an owner letting go of its old runtime leaves a newer owner's runtime answering", () => {
    const handle = new ChatHandle(store);
    const old = liveRuntime(1);
    const newer = liveRuntime(2);
    handle.useLive(old);
    handle.useLive(newer);
    handle.release(old);
    expect(handle.connected()).toEqual([{ accountId: 2, since: 0 }]);
  });

  test("cannot close chat: only whoever started the runtime can", () => {
    expect("close" in new ChatHandle(store)).toBe(false);
  });
});
