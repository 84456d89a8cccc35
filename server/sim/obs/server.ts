import { randomBytes } from "node:crypto";
import type { Server, ServerWebSocket } from "bun";
import { type Clock, systemClock } from "../../core/clock.ts";
import { processMessage, type Session } from "./messages.ts";
import {
  authSecret,
  CLOSES,
  JSON_SUBPROTOCOL,
  MSGPACK_SUBPROTOCOL,
  OBS_WEBSOCKET_VERSION,
  Op,
  RPC_VERSION,
  Subscription,
} from "./protocol.ts";
import { seedDemoScenes } from "./seed.ts";
import { ObsState } from "./state.ts";

/**
 * A simulated OBS Studio 29.0.2 with obs-websocket 5.1.0 on loopback, for tests and `serve --demo`
 * (reference/obs.md §2–6, §11). It speaks the protocol as that release does and is held to it by the
 * protocol tests, which run against this and a real OBS alike (tests/server/sim/obs/): Hello with
 * authentication (a salt per start, a challenge per connection), Identify and Reidentify, OBS's close
 * codes and reasons, requests and batches (messages.ts, requests.ts), and events for the subscribed bits
 * only. It speaks JSON (`obswebsocket.json`, or no subprotocol); a client that offers msgpack alone is
 * refused at the upgrade, as the simulator has no msgpack.
 *
 * The state (state.ts) outlives stop and restart, as OBS's scene collection outlives a restart of OBS.
 */

export interface ObsSimulatorOptions {
  clock?: Clock;
  hostname?: string;
  /** 0 (default): any free port; kept across restart. */
  port?: number;
  /** null: authentication off. Default "cuebot-demo". */
  password?: string | null;
  /** Start with the demo's scenes (seed.ts); default true. Without it OBS's fresh "Scene" only. */
  seeded?: boolean;
}

export interface ObsSimulator {
  /** ws://host:port */
  url: string;
  port: number;
  readonly password: string | null;
  state: ObsState;
  /** Clients identified right now. */
  identifiedClients(): number;
  /** As changing the password in OBS's settings: the server restarts, every client gets 1001. */
  setPassword(password: string | null): void;
  /** OBS quits: ExitStarted to General subscribers, then 1001 "Server stopping." and no listener. */
  stop(): Promise<void>;
  /** OBS crashes: connections drop with no close frame and nothing listens. */
  kill(): Promise<void>;
  /** OBS starts again on the same port with the same scenes (a new salt). */
  restart(): Promise<void>;
}

export const DEMO_OBS_PASSWORD = "cuebot-demo";

type Socket = ServerWebSocket<Session>;

const newSalt = () => randomBytes(32).toString("base64");

/** The subprotocol OBS would select, or "refuse" when only msgpack is offered. */
function chooseSubprotocol(request: Request): string | null | "refuse" {
  const offered = (request.headers.get("sec-websocket-protocol") ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (offered.includes(JSON_SUBPROTOCOL)) return JSON_SUBPROTOCOL;
  return offered.includes(MSGPACK_SUBPROTOCOL) ? "refuse" : null;
}

export function startObsSimulator(options: ObsSimulatorOptions = {}): ObsSimulator {
  const clock = options.clock ?? systemClock;
  const state = new ObsState(clock);
  if (options.seeded === false) state.createScene("Scene");
  else seedDemoScenes(state);
  let password = options.password === undefined ? DEMO_OBS_PASSWORD : options.password;
  let salt = newSalt();
  const sockets = new Set<Socket>();
  let server: Server<Session> | null = null;

  state.emit = (intent, eventType, eventData) => {
    const d: Record<string, unknown> = { eventIntent: intent, eventType };
    if (eventData) d.eventData = eventData;
    const frame = JSON.stringify({ d, op: Op.Event });
    for (const ws of sockets) {
      if (ws.data.identified && (ws.data.subscriptions & intent) !== 0) ws.send(frame);
    }
  };

  const hello = (ws: Socket) => {
    const d: Record<string, unknown> = {
      obsWebSocketVersion: OBS_WEBSOCKET_VERSION,
      rpcVersion: RPC_VERSION,
    };
    if (ws.data.secret !== null) d.authentication = { challenge: ws.data.challenge, salt };
    ws.send(JSON.stringify({ d, op: Op.Hello }));
  };

  const listen = (port: number) =>
    Bun.serve<Session>({
      hostname: options.hostname ?? "127.0.0.1",
      port,
      fetch(request, srv) {
        const protocol = chooseSubprotocol(request);
        if (protocol === "refuse") {
          return new Response("this simulated OBS speaks obswebsocket.json only", { status: 400 });
        }
        const data: Session = {
          identified: false,
          subscriptions: Subscription.All,
          challenge: newSalt(),
          secret: password === null ? null : authSecret(password, salt),
        };
        const headers = protocol ? new Headers({ "Sec-WebSocket-Protocol": protocol }) : undefined;
        if (srv.upgrade(request, { data, headers })) return undefined;
        return new Response("obs-websocket expects a WebSocket upgrade", { status: 400 });
      },
      websocket: {
        open(ws) {
          sockets.add(ws);
          hello(ws);
        },
        async message(ws, message) {
          if (typeof message !== "string")
            return ws.close(CLOSES.jsonGotBinary.code, CLOSES.jsonGotBinary.reason);
          const outcome = await processMessage(state, ws.data, message);
          if (ws.readyState !== WebSocket.OPEN) return;
          if ("close" in outcome) ws.close(outcome.close.code, outcome.close.reason);
          else if (outcome.reply) ws.send(JSON.stringify(outcome.reply));
        },
        close(ws) {
          sockets.delete(ws);
        },
        idleTimeout: 0,
      },
    });

  server = listen(options.port ?? 0);
  const port = server.port!;

  const closeAll = (abrupt: boolean) => {
    for (const ws of sockets) {
      if (abrupt) ws.terminate();
      else ws.close(CLOSES.serverStopping.code, CLOSES.serverStopping.reason);
    }
    sockets.clear();
  };
  const shutDown = async (abrupt: boolean) => {
    if (!server) return;
    const stopping = server;
    server = null;
    closeAll(abrupt);
    await stopping.stop(true);
  };

  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    get password() {
      return password;
    },
    state,
    identifiedClients: () => [...sockets].filter((ws) => ws.data.identified).length,
    setPassword(next) {
      password = next;
      salt = newSalt();
      closeAll(false);
    },
    async stop() {
      state.emit(Subscription.General, "ExitStarted");
      await shutDown(false);
    },
    kill: () => shutDown(true),
    async restart() {
      await shutDown(true);
      salt = newSalt();
      server = listen(port);
    },
  };
}

/** `bun server/sim/obs/server.ts`: run the simulator alone. */
if (import.meta.main) {
  const sim = startObsSimulator({ port: Number(process.env.PORT ?? 4455) });
  console.log(`simulated OBS on ${sim.url} — password: ${sim.password}`);
}
