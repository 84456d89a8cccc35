import { deleteAccountRow } from "../../db/accounts.ts";
import type { CommandEvent } from "../../db/events.ts";
import { recentEvents } from "../../db/events.ts";
import type { Context } from "../../server/runtime.ts";
import { createTestAccount } from "./context.ts";

/** The n-th analytics event of an account: distinct time, caller and latency, so order shows. */
export const commandEvent = (accountId: number, n: number): CommandEvent => ({
  accountId,
  at: 1_700_000_000_000 + n,
  command: "dice",
  caller: `viewer${n}`,
  outcome: "ok",
  latencyMs: n,
  test: false,
  refused: null,
});

/**
 * The scenario every event writer must survive: three events for two accounts, one of which is deleted
 * before they are stored. Returns the callers stored for the account that was kept, newest first.
 */
export async function recordAroundDeletedAccount(
  ctx: Context,
  sink: { record(event: CommandEvent): void; flush(): Promise<void> },
): Promise<string[]> {
  const kept = (await createTestAccount(ctx)).account;
  const gone = (await createTestAccount(ctx)).account;
  sink.record(commandEvent(kept.id, 1));
  sink.record(commandEvent(gone.id, 2));
  sink.record(commandEvent(kept.id, 3));
  await deleteAccountRow(ctx.db, gone.id);
  await sink.flush();
  return (await recentEvents(ctx.db, kept.id, 10)).map((row) => row.caller);
}
