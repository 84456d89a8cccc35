import type { CommandEvent } from "../../db/events.ts";

/** The n-th analytics event of an account: distinct time, caller and latency, so order shows. */
export const commandEvent = (accountId: number, n: number): CommandEvent => ({
  accountId,
  at: 1_700_000_000_000 + n,
  command: "dice",
  caller: `viewer${n}`,
  outcome: "ok",
  latencyMs: n,
});
