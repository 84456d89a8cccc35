import { expect, test } from "bun:test";
import { KeyedQueue } from "../../../server/core/keyed-queue.ts";

test("tasks of one key run one after another, other keys alongside; a failure does not stop the queue", async () => {
  const queue = new KeyedQueue<string>();
  const log: string[] = [];
  const task =
    (name: string, ms: number, fail = false) =>
    async () => {
      log.push(`${name} start`);
      await Bun.sleep(ms);
      log.push(`${name} end`);
      if (fail) throw new Error(name);
      return name;
    };
  const a1 = queue.run("a", task("a1", 20, true));
  const a2 = queue.run("a", task("a2", 1));
  const b1 = queue.run("b", task("b1", 5));
  await expect(a1).rejects.toThrow("a1");
  expect(await a2).toBe("a2");
  expect(await b1).toBe("b1");
  expect(log.indexOf("a1 end")).toBeLessThan(log.indexOf("a2 start"));
  expect(log.indexOf("b1 start")).toBeLessThan(log.indexOf("a1 end"));
});
