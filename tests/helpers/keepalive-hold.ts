import type { TwitchSimulator } from "../../server/sim/twitch/server.ts";
import { waitFor } from "./chat.ts";

/**
 * Holds an EventSub session for `ms` while chat is quiet but for one line just after each keepalive —
 * the timing that made clients with a 1.2 × watchdog drop the socket when the simulator polled for
 * silence every quarter window (the next keepalive came 1.25 × the timeout after the line). The line
 * goes a fiftieth of the window after the keepalive: later than the polling timers drift, earlier
 * than the twentieth that the 1.2 × watchdog forgives. Returns the message ids said; stops early when
 * the session closes or sends no keepalive within twice its timeout.
 */
export async function holdWithLinesAfterKeepalives(
  sim: TwitchSimulator,
  sessionId: string,
  ms: number,
  secondMs: number,
): Promise<string[]> {
  const session = () => sim.chat.sessions().find((s) => s.id === sessionId);
  const timeoutS = session()?.keepaliveSeconds ?? 10;
  const said: string[] = [];
  const started = Date.now();
  while (Date.now() - started < ms) {
    const seen = session()?.keepalives ?? 0;
    const next = await waitFor(
      () => {
        const now = session();
        return now && (now.status === "closed" || now.keepalives > seen) ? now : null;
      },
      2 * timeoutS * secondMs,
    );
    if (next?.status !== "connected") break;
    await Bun.sleep((timeoutS * secondMs) / 50);
    said.push(sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: `line ${said.length + 1}` }));
  }
  return said;
}
