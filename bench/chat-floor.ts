import { readFileSync } from "node:fs";
import { keepAliveFetch } from "../server/twitch/keep-alive-fetch.ts";

/**
 * The floor of native chat (issue 34): a bare Bun script doing only the socket work one command needs,
 * run by bench/chat-scale.ts as a process of its own beside cuebot's, over the same channels and rates.
 * Per channel one EventSub WebSocket (Bun's client, as cuebot's), one `channel.chat.message`
 * subscription; per command it receives the notification frame, sends one Send Chat Message on a
 * kept-alive HTTP/1.1 socket, reads the answer, and receives the echo of its own line. Nothing else:
 * no database, no dedupe, no limits, no command table, no watchdog.
 *
 * The HTTP client is cuebot's own server/twitch/keep-alive-fetch.ts by default: the cheapest kept-alive
 * client on this runtime (Bun's fetch hands each call to its HTTP thread and back, measured dearer per
 * call), so the floor is not raised by a cost cuebot already avoids. `"client": "fetch"` in the setup
 * file measures Bun's fetch instead.
 *
 * `bun bench/chat-floor.ts SETUP.json`: the setup names the simulator's URLs, the client id and each
 * channel's user and token (the streamer speaks as themselves, as the bench's cuebot does). It prints
 * `ready` once every channel is subscribed, then answers until SIGTERM.
 */

export interface FloorSetup {
  eventsubUrl: string;
  helixUrl: string;
  clientId: string;
  channels: { userId: string; token: string }[];
  client?: "keep-alive" | "fetch";
}

/** What the floor answers every command with (about the length of cuebot's `!magic8` answers). */
const REPLY = "🎱 Signs point to yes.";
/** Sockets opened at once while connecting (the simulator's welcome window is 10 s per socket). */
const CONNECTING_AT_ONCE = 50;

interface ChatEvent {
  broadcaster_user_id: string;
  chatter_user_id: string;
  message_id: string;
  message: { text: string };
}

interface Frame {
  metadata: { message_type: string };
  payload: { session?: { id: string }; event?: ChatEvent };
}

const setup = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as FloorSetup;
const request = setup.client === "fetch" ? fetch : keepAliveFetch();

function helix(path: string, token: string, body: object): Promise<Response> {
  return request(new URL(`${setup.helixUrl}${path}`), {
    method: "POST",
    headers: {
      "Client-Id": setup.clientId,
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
    },
    body: JSON.stringify(body),
  });
}

async function answer(token: string, event: ChatEvent): Promise<void> {
  const response = await helix("/chat/messages", token, {
    broadcaster_id: event.broadcaster_user_id,
    sender_id: event.broadcaster_user_id,
    message: REPLY,
    reply_parent_message_id: event.message_id,
  });
  const body = (await response.json()) as { data?: { is_sent: boolean }[] };
  if (response.status !== 200 || !body.data?.[0]?.is_sent)
    console.error(`floor: Send Chat Message answered ${response.status} ${JSON.stringify(body)}`);
}

/** Opens the channel's socket; resolves once its subscription is made. */
function connect(channel: FloorSetup["channels"][number]): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${setup.eventsubUrl}?keepalive_timeout_seconds=10`);
    socket.onmessage = (message) => {
      const frame = JSON.parse(message.data as string) as Frame;
      const type = frame.metadata.message_type;
      const event = frame.payload.event;
      if (type === "notification" && event) {
        // Its own line's echo is read and left; anything else is a command to answer.
        if (event.chatter_user_id !== channel.userId && event.message.text.startsWith("!"))
          answer(channel.token, event).catch((error) => console.error(`floor: ${error}`));
      } else if (type === "session_welcome") {
        const condition = { broadcaster_user_id: channel.userId, user_id: channel.userId };
        helix("/eventsub/subscriptions", channel.token, {
          type: "channel.chat.message",
          version: "1",
          condition,
          transport: { method: "websocket", session_id: frame.payload.session!.id },
        })
          .then(async (response) => {
            await response.arrayBuffer();
            if (response.status === 202) resolve();
            else reject(new Error(`floor: subscribing answered ${response.status}`));
          })
          .catch(reject);
      }
    };
    socket.onclose = (event) => reject(new Error(`floor: socket closed (${event.code})`));
  });
}

const waiting = [...setup.channels];
await Promise.all(
  Array.from({ length: CONNECTING_AT_ONCE }, async () => {
    for (let channel = waiting.pop(); channel; channel = waiting.pop()) await connect(channel);
  }),
);
console.log("ready");
process.on("SIGTERM", () => process.exit(0));
