import { expect, test } from "bun:test";
import { SingleFlight } from "../../../server/cache/single-flight.ts";

test("concurrent calls for one key share one run and its result", async () => {
  const flights = new SingleFlight<string, number>();
  let runs = 0;
  const slow = async () => {
    runs++;
    await Bun.sleep(5);
    return 42;
  };
  const results = await Promise.all(Array.from({ length: 50 }, () => flights.run("k", slow)));
  expect(results.every((r) => r === 42)).toBe(true);
  expect(runs).toBe(1);
  expect(flights.size).toBe(0);
});

test("different keys run separately; a settled key runs again", async () => {
  const flights = new SingleFlight<string, string>();
  let runs = 0;
  const work = async (v: string) => {
    runs++;
    return v;
  };
  expect(await Promise.all([flights.run("a", () => work("a")), flights.run("b", () => work("b"))])).toEqual([
    "a",
    "b",
  ]);
  await flights.run("a", () => work("a"));
  expect(runs).toBe(3);
});

test("every waiter gets the error, and the key is free afterwards (also for a synchronous throw)", async () => {
  const flights = new SingleFlight<string, number>();
  const failing = () => {
    throw new Error("boom");
  };
  const waiters = [flights.run("k", failing), flights.run("k", failing)];
  for (const waiter of waiters) await expect(waiter).rejects.toThrow("boom");
  expect(flights.size).toBe(0);
  expect(await flights.run("k", async () => 1)).toBe(1);
});
