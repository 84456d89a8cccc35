import type { RunOutcome, RunRelay, RunRequest } from "../actions/handle.ts";
import type { RunCause, StepOutcome } from "../actions/model.ts";
import { ACTION_LIMITS } from "../vocabulary.ts";
import type { RedisClient } from "./client.ts";
import { RedisRequestChannel } from "./request-channel.ts";

/**
 * Actions' runs asked on any instance and run on the one holding the live layer (the chat lease
 * holder, which holds the accounts' OBS connections and chat), over redis/request-channel.ts.
 */

/** The longest a run can take (every step a longest wait) and a margin: the asker's wait. */
const LONGEST_RUN_MS = ACTION_LIMITS.steps * (ACTION_LIMITS.waitSeconds + 10) * 1000;

const CAUSES: ReadonlySet<string> = new Set<RunCause["trigger"]>(["button", "command", "alert", "stream"]);

const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null;
const textOrNull = (value: unknown): value is string | null => value === null || typeof value === "string";

function causeOf(value: unknown): RunCause | null {
  const c = record(value);
  if (!c || typeof c.trigger !== "string" || !CAUSES.has(c.trigger) || typeof c.user !== "string")
    return null;
  if (!(c.amount === null || Number.isFinite(c.amount)) || !textOrNull(c.reward) || !textOrNull(c.message))
    return null;
  return {
    trigger: c.trigger as RunCause["trigger"],
    user: c.user,
    amount: c.amount as number | null,
    reward: c.reward,
    message: c.message,
  };
}

function requestOf(value: unknown): RunRequest | null {
  const r = record(value);
  const cause = causeOf(r?.cause);
  if (!r || !cause || !Number.isSafeInteger(r.accountId) || !Number.isSafeInteger(r.actionId)) return null;
  return { accountId: r.accountId as number, actionId: r.actionId as number, cause };
}

function stepOf(value: unknown): StepOutcome | null {
  const s = record(value);
  if (!s || typeof s.type !== "string" || typeof s.ok !== "boolean" || !textOrNull(s.error)) return null;
  return { type: s.type as StepOutcome["type"], ok: s.ok, error: s.error };
}

function outcomeOf(value: unknown): RunOutcome | null {
  const o = record(value);
  if (o?.kind === "busy" || o?.kind === "missing") return { kind: o.kind };
  const answer = record(o?.answer);
  if (o?.kind !== "ran" || !answer || typeof answer.ok !== "boolean" || !Array.isArray(answer.steps))
    return null;
  const steps = answer.steps.map(stepOf);
  if (steps.some((step) => step === null)) return null;
  return { kind: "ran", answer: { ok: answer.ok, steps: steps as StepOutcome[] } };
}

export class RedisActionRelay implements RunRelay {
  readonly #channel: RedisRequestChannel<RunRequest, RunOutcome>;
  readonly #longestRunMs: number;

  constructor(
    client: RedisClient,
    subscriber: RedisClient,
    options: { keyPrefix: string; timeoutMs: number; longestRunMs?: number },
  ) {
    this.#channel = new RedisRequestChannel(client, subscriber, {
      keyPrefix: options.keyPrefix,
      name: "action-run",
      timeoutMs: options.timeoutMs,
      parseQuestion: requestOf,
      parseAnswer: outcomeOf,
    });
    this.#longestRunMs = options.longestRunMs ?? LONGEST_RUN_MS;
  }

  ask(request: RunRequest): Promise<RunOutcome | null> {
    return this.#channel.ask(request, this.#longestRunMs);
  }

  serve(run: (request: RunRequest) => Promise<RunOutcome>): () => void {
    return this.#channel.serve(run);
  }
}
