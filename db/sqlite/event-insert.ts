import type { Statement } from "bun:sqlite";
import type { CommandEvent } from "../events.ts";

/** The one INSERT of an analytics event, prepared by the event loop's sink and the database worker alike. */
export const EVENT_INSERT =
  "INSERT INTO events (account_id, at, command, caller, outcome, latency_ms, test, refused) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

/** Runs EVENT_INSERT for one event (prepared on the writer's own connection). */
export function insertEvent(statement: Statement, row: CommandEvent): void {
  statement.run(
    row.accountId,
    row.at,
    row.command,
    row.caller,
    row.outcome,
    row.latencyMs,
    row.test ? 1 : 0,
    row.refused,
  );
}
