import { answerWithin } from "./bounded.ts";
import type { RedisClient } from "./client.ts";

/** The commands a script needs from the client. */
export type ScriptClient = Pick<RedisClient, "evalSha" | "eval" | "del">;

export interface ScriptCall {
  keys: string[];
  args: string[];
}

/**
 * A Lua script run in one round trip: EVALSHA, and EVAL (which also caches it) only when the server
 * answers NOSCRIPT because it restarted or its script cache was flushed. Each call, reload included,
 * is bounded by `timeoutMs`; any failure to get an answer is a StoreUnavailableError.
 */
export class RedisScript {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = new Bun.CryptoHasher("sha1").update(source).digest("hex");
  }

  run(client: ScriptClient, call: ScriptCall, timeoutMs: number): Promise<unknown> {
    return answerWithin(this.#evaluate(client, call), timeoutMs);
  }

  async #evaluate(client: ScriptClient, call: ScriptCall): Promise<unknown> {
    const options = { keys: call.keys, arguments: call.args };
    try {
      return await client.evalSha(this.sha, options);
    } catch (error) {
      // Matched by message, not `instanceof ErrorReply`: importing "redis" here would load the whole
      // client at start (the rate limits use this file even with no Redis), ~5 MB of idle RSS.
      if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
      return await client.eval(this.source, options);
    }
  }
}

/** The integers of a script's array reply. */
export function integerReply(reply: unknown, length: number): number[] {
  if (!Array.isArray(reply) || reply.length !== length || !reply.every((n) => typeof n === "number")) {
    throw new TypeError(`unexpected script reply: ${JSON.stringify(reply)}`);
  }
  return reply as number[];
}
