import { listAccounts } from "../db/accounts.ts";
import type { Channel } from "../server/chat/channels.ts";
import { ChatChannels } from "../server/chat/channels.ts";
import { ChatDispatch } from "../server/chat/dispatch.ts";
import { OwnLines } from "../server/chat/own-lines.ts";
import { CHAT_MESSAGE } from "../server/chat/readers.ts";
import { ChannelSendQueue } from "../server/chat/send-queue.ts";
import { loadConfig } from "../server/core/config.ts";
import { createLogger } from "../server/core/log.ts";
import { parseFrame } from "../server/live/eventsub-message.ts";
import type { LiveFeed } from "../server/live/feed.ts";
import { FeedRoutes } from "../server/live/feed-routes.ts";
import { createContext } from "../server/runtime.ts";
import { createFixture } from "./fixture.ts";

/**
 * Native chat's JavaScript alone, without sockets: `bun bench/chat-in-process.ts [messages]` parses
 * EventSub frames of `!magic8`, routes them as a live session does (live/feed-routes.ts: dedupe, the
 * channel's feed) and runs them through chat/dispatch.ts for 1,000 channels, with a send
 * queue whose send answers at once, and prints µs of CPU per answered command. Quicker and steadier
 * than bench/chat-scale.ts for trying a change to the dispatch path.
 */

const MESSAGES = Number(process.argv[2] ?? 50_000);
/** Messages handled per turn of the event loop (a busy server reads many; a quiet one, one at a time). */
const BATCH = Number(process.argv[3] ?? 100);
const CHANNELS = 1_000;
const CHATTERS = 40;

const fixture = await createFixture(CHANNELS, { chat: true });
const config = loadConfig({ dataDir: fixture.dataDir, env: fixture.env });
const ctx = createContext(config, { log: createLogger({ level: "error", format: "json", write: () => {} }) });
const accounts = (await listAccounts(ctx.db)).filter((a) => a.login.startsWith("benchstreamer"));
const channels = new ChatChannels(ctx);
let answered = 0;
// As `serve` does it: the channels' feeds are registered below, once the dispatch exists.
const routesOf: FeedRoutes[] = accounts.map((account) => {
  const channel: Channel = {
    accountId: account.id,
    broadcasterId: account.twitchUserId,
    speaker: { kind: "streamer", userId: account.twitchUserId },
    state: "connected",
    since: 0,
    reason: null,
    connection: null,
    ownLines: new OwnLines(() => ctx.clock.now()),
    queue: new ChannelSendQueue({
      now: () => ctx.clock.now(),
      send: async () => {
        answered++;
        return { isSent: true, dropReason: null };
      },
      onDropped: () => {},
    }),
  };
  channel.queue.privileged = true;
  channels.byAccount.set(account.id, channel);
  const routes = new FeedRoutes(() => ctx.clock.now());
  const feed: LiveFeed = {
    holder: channel,
    broadcasterId: channel.broadcasterId,
    types: [CHAT_MESSAGE],
    wanted: async () => [],
    subscribed: () => true,
    notification: (frame) => dispatch.onNotification(channel, frame),
    revoked: () => false,
    down: () => {},
  };
  channel.connection = feed;
  routes.add(feed);
  return routes;
});
// As `serve` alone on its SQLite file: admin commands announce their changes.
const dispatch = new ChatDispatch(ctx, { changesAnnounced: true });

function frameText(n: number): string {
  const account = accounts[n % accounts.length]!;
  const chatter = Math.floor(n / accounts.length) % CHATTERS;
  return JSON.stringify({
    metadata: {
      message_id: crypto.randomUUID(),
      message_type: "notification",
      message_timestamp: new Date(ctx.clock.now()).toISOString(),
      subscription_type: "channel.chat.message",
      subscription_version: "1",
    },
    payload: {
      subscription: {
        id: crypto.randomUUID(),
        type: "channel.chat.message",
        version: "1",
        status: "enabled",
        condition: { broadcaster_user_id: account.twitchUserId, user_id: account.twitchUserId },
      },
      event: {
        broadcaster_user_id: account.twitchUserId,
        broadcaster_user_login: account.login,
        broadcaster_user_name: account.login,
        chatter_user_id: String(900_000 + chatter),
        chatter_user_login: `benchchatter${chatter}`,
        chatter_user_name: `benchchatter${chatter}`,
        message_id: crypto.randomUUID(),
        message: { text: "!magic8 will this bench pass?", fragments: [] },
        badges: [],
        message_type: "text",
        reply: null,
      },
    },
  });
}

async function round(from: number, count: number): Promise<void> {
  for (let n = from; n < from + count; n++) {
    const frame = parseFrame(frameText(n));
    if (frame?.type === "notification") routesOf[n % routesOf.length]!.deliver(frame);
  }
  await Bun.sleep(1);
}

// Warm-up: every channel once (settings and caches read), then the JIT.
for (let n = 0; n < CHANNELS * 2; n += 100) await round(n, 100);
const texts = Array.from({ length: 1000 }, (_, i) => frameText(i));
const parseStart = process.cpuUsage();
for (let i = 0; i < 50_000; i++) parseFrame(texts[i % texts.length]!);
const parseCpu = process.cpuUsage(parseStart);
answered = 0;
const started = process.cpuUsage();
for (let n = CHANNELS * 2; n < CHANNELS * 2 + MESSAGES; n += BATCH) await round(n, BATCH);
await Bun.sleep(50);
const cpu = process.cpuUsage(started);
console.log(
  `chat dispatch, ${BATCH} a turn: ${answered}/${MESSAGES} answered, ${((cpu.user + cpu.system) / answered).toFixed(1)} µs CPU per answered command (frame built, parsed, dispatched, queued); parseFrame alone ${((parseCpu.user + parseCpu.system) / 50_000).toFixed(1)} µs`,
);
await ctx.close();
await fixture.stop();
