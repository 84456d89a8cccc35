import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listenForNotices, type NoticeListener, noticeChanges } from "../../../server/core/change-notices.ts";
import {
  type RegisteredInstance,
  registerInstance,
  runFolder,
} from "../../../server/core/instance-registry.ts";

/**
 * An admin command tells the servers of its data folder that it committed, and waits for their
 * answer: the server has looked for the change before the command exits (CONTRACT §3, next request).
 */
const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup.splice(0).reverse()) fn();
});

function dataFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "cuebot-notices-"));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function serverOn(dir: string, onNotice: () => void, folder: "data" | "demo" = "data") {
  const instance: RegisteredInstance = registerInstance(dir, { folder, redisUrl: null });
  const listener = listenForNotices(runFolder(dir), onNotice, (error) => {
    throw error;
  }) as NoticeListener;
  expect(instance.announce(listener.address)).toBe(true);
  cleanup.push(() => {
    listener.stop();
    instance.release();
  });
  return { instance, listener };
}

/** Connects to a notice socket, sends `text`, and resolves with what came back before it closed. */
function exchange(socket: string, text: string, idle = false): Promise<string> {
  return new Promise<string>((resolve) => {
    let received = "";
    void Bun.connect({
      unix: socket,
      socket: {
        open: (s) => void (idle ? undefined : s.write(text)),
        data: (_s, d) => {
          received += d.toString();
        },
        close: () => resolve(received),
      },
    });
  });
}

describe("change notices", () => {
  test("the server looks before the command's notice settles", async () => {
    const dir = dataFolder();
    const looks: number[] = [];
    serverOn(dir, () => looks.push(Date.now()));
    await noticeChanges(dir);
    expect(looks).toHaveLength(1);
  });

  test("a notice without the server's token changes nothing", async () => {
    const dir = dataFolder();
    let looks = 0;
    const { listener } = serverOn(dir, () => looks++);
    const answer = await new Promise<string>((resolve) => {
      void Bun.connect({
        unix: listener.address.socket,
        socket: {
          open: (s) => void s.write("not-the-token\n"),
          data: (_s, d) => resolve(d.toString()),
          close: () => resolve("closed"),
        },
      });
    });
    expect(answer).toBe("closed");
    expect(looks).toBe(0);
  });

  test("a connection that sends a flood, or nothing, is closed; the server still takes notices", async () => {
    const dir = dataFolder();
    let looks = 0;
    const { listener } = serverOn(dir, () => looks++);
    expect(await exchange(listener.address.socket, "x".repeat(1_000_000))).toBe("");
    const started = performance.now();
    expect(await exchange(listener.address.socket, "", true)).toBe("");
    expect(performance.now() - started).toBeLessThan(5_000);
    await noticeChanges(dir);
    expect(looks).toBe(1);
  }, 15_000);

  test("no server, a server gone, or the demo's: the command is not held up", async () => {
    const dir = dataFolder();
    await noticeChanges(dir);
    let demoLooks = 0;
    serverOn(dir, () => demoLooks++, "demo");
    const gone = serverOn(dir, () => {});
    gone.listener.stop();
    const started = performance.now();
    await noticeChanges(dir);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(demoLooks).toBe(0);
  });
});
