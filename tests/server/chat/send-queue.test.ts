import { expect, test } from "bun:test";
import { ChannelSendQueue, type QueuedReply } from "../../../server/chat/send-queue.ts";

/** A queue whose sends wait until released, recording what went out and what was dropped. */
function heldQueue(capacity: number) {
  const sent: string[] = [];
  const dropped: [string, string][] = [];
  let release: () => void = () => {};
  const queue = new ChannelSendQueue({
    capacity,
    now: () => Date.now(),
    send: async (text) => {
      sent.push(text);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { isSent: true, dropReason: null };
    },
    onDropped: (reply: QueuedReply, code) => dropped.push([reply.text, code]),
  });
  queue.privileged = true;
  return { queue, sent, dropped, release: () => release() };
}

const line = (text: string, urgent = false): QueuedReply => ({
  text,
  replyTo: "",
  command: "test",
  caller: "test",
  urgent,
});

test("an urgent line goes ahead of waiting replies and is never skipped for a full queue", async () => {
  const { queue, sent, dropped, release } = heldQueue(3);
  queue.push(line("first"));
  for (const text of ["a", "b", "c"]) queue.push(line(text));
  queue.push(line("shield", true));
  expect(dropped).toEqual([["c", "queue_full"]]);
  for (let i = 0; i < 4; i++) {
    release();
    await Bun.sleep(1_100);
  }
  expect(sent.slice(0, 3)).toEqual(["first", "shield", "a"]);
}, 10_000);
