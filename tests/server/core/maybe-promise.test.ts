import { describe, expect, test } from "bun:test";
import { andThen, bothOf } from "../../../server/core/maybe-promise.ts";

describe("values now or later", () => {
  test("andThen runs at once on a value, and after the promise on a promise", async () => {
    expect(andThen(2, (n) => n * 3)).toBe(6);
    expect(await andThen(Promise.resolve(2), (n) => n * 3)).toBe(6);
  });

  test("bothOf: two values at once, a promise when either is one", async () => {
    expect(bothOf(1, () => "a")).toEqual([1, "a"]);
    const later = bothOf(Promise.resolve(1), () => "a");
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toEqual([1, "a"]);
  });

  test("bothOf: when the second throws at once, the first's later rejection is handled, not left to crash", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      let rejectFirst: (error: Error) => void = () => {};
      const first = new Promise<number>((_, reject) => {
        rejectFirst = reject;
      });
      expect(() =>
        bothOf(first, () => {
          throw new Error("the second, at once");
        }),
      ).toThrow("the second, at once");
      rejectFirst(new Error("the first, later"));
      await Bun.sleep(10);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
