import { ManualClock } from "../../server/core/clock.ts";
import { startTwitchSimulator, type TwitchSimulator } from "../../server/sim/twitch/server.ts";
import { SIM_EPOCH } from "../../server/sim/twitch/world.ts";

/** A Helix answer as tests look at it: status, parsed JSON (null for an empty body) and headers. */
export interface HelixAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export type HelixQuery = Record<string, string | number | boolean | (string | number)[] | undefined>;

export interface HelixCallOptions {
  query?: HelixQuery;
  /** Sent as JSON with Content-Type: application/json. */
  body?: unknown;
  /** Extra or replacing headers (e.g. a wrong Content-Type). */
  headers?: Record<string, string>;
}

/** Raw HTTP against the simulator, the way Twitch documents requests (repeated list parameters). */
export async function callHelix<T = unknown>(
  sim: TwitchSimulator,
  token: string,
  method: string,
  path: string,
  options: HelixCallOptions = {},
): Promise<HelixAnswer<T>> {
  const url = new URL(`${sim.helixUrl}${path}`);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
  }
  const headers: Record<string, string> = {
    "Client-Id": sim.client.id,
    Authorization: `Bearer ${token}`,
    ...(options.body !== undefined ? { "Content-Type": "application/json" } : {}),
    ...options.headers,
  };
  const response = await fetch(url, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

/** A simulator on a ManualClock set to the seeded world's epoch, so cooldowns and timeouts are exact. */
export function startClockedSimulator(): { sim: TwitchSimulator; clock: ManualClock } {
  const clock = new ManualClock(SIM_EPOCH);
  return { sim: startTwitchSimulator({ clock }), clock };
}
