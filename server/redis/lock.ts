import { answerWithin } from "./bounded.ts";
import type { RedisClient } from "./client.ts";
import { RedisScript, type ScriptClient } from "./script.ts";

/** Deletes a key only while it still holds the caller's token: nobody releases another's lock. */
export const RELEASE_IF_HELD = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

/** A short lock in one Redis key (`SET NX PX`): its token when taken, null while another holds it. */
export async function takeLock(
  client: Pick<RedisClient, "set">,
  key: string,
  ttlMs: number,
  timeoutMs: number,
): Promise<string | null> {
  const token = crypto.randomUUID();
  const reply = await answerWithin(client.set(key, token, { NX: true, PX: ttlMs }), timeoutMs);
  return reply === "OK" ? token : null;
}

/** Gives the lock back if this token still holds it; a failure is left to the lock's expiry. */
export async function releaseLock(
  client: ScriptClient,
  key: string,
  token: string,
  timeoutMs: number,
): Promise<void> {
  await RELEASE_IF_HELD.run(client, { keys: [key], args: [token] }, timeoutMs).catch(() => {});
}
