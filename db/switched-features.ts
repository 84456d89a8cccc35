import { asc, eq } from "drizzle-orm";
import type { DataStore, Tables } from "./data-store.ts";
import type { ChatState } from "./schema-enums.ts";

/**
 * One storage shape for "a feature switched on per account, with the state its connection last
 * reported" (native chat's `chat_settings`, alerts' `alert_channels`, moderation's `moderation_channels`): the streamer's switch, the
 * state, since when and why, written by whoever runs the feature (the panel and the CLI switch it;
 * the running server reports the state).
 */
export interface SwitchedFeature {
  enabled: boolean;
  state: ChatState;
  stateSince: number | null;
  reason: string | null;
  updatedAt: number;
}

/** The tables of that shape (held equal by the compiler below). */
export type SwitchTable = "chatSettings" | "alertChannels" | "moderationChannels";

// Both tables have the same columns: the queries below are written once, against either.
type Columns<T extends SwitchTable> = Tables[T]["$inferSelect"];
const SAME_SHAPE: [Columns<"chatSettings">, Columns<"alertChannels">] extends [
  Columns<"alertChannels">,
  Columns<"chatSettings">,
]
  ? true
  : never = true;
void SAME_SHAPE;
const SAME_AS_MODERATION: [Columns<"chatSettings">, Columns<"moderationChannels">] extends [
  Columns<"moderationChannels">,
  Columns<"chatSettings">,
]
  ? true
  : never = true;
void SAME_AS_MODERATION;

/** The reads and writes of one feature's switch and state. */
export function switchedFeature(name: SwitchTable) {
  const table = (t: Tables) => t[name] as Tables["chatSettings"];
  return {
    async read(s: DataStore, accountId: number): Promise<SwitchedFeature | null> {
      const row = await s.first((db, t) =>
        db
          .select()
          .from(table(t))
          .where(eq(table(t).accountId, accountId))
          .limit(1),
      );
      return row ? fromRow(row) : null;
    },

    /** Turns the feature on or off for an account (the state is then reported by the running server). */
    setEnabled(s: DataStore, accountId: number, enabled: boolean, now: number): Promise<void> {
      return s.run((db, t) =>
        db
          .insert(table(t))
          .values({ accountId, enabled, updatedAt: now })
          .onConflictDoUpdate({ target: table(t).accountId, set: { enabled, updatedAt: now } }),
      );
    },

    /** Records the state the running server sees (for the panel after a restart, and the CLI). */
    writeState(
      s: DataStore,
      accountId: number,
      state: ChatState,
      reason: string | null,
      now: number,
    ): Promise<void> {
      return s.run((db, t) =>
        db
          .insert(table(t))
          .values({ accountId, state, stateSince: now, reason, updatedAt: now })
          .onConflictDoUpdate({
            target: table(t).accountId,
            set: { state, stateSince: now, reason, updatedAt: now },
          }),
      );
    },

    /** Accounts whose streamer switched the feature on, in account order. */
    async listEnabled(s: DataStore): Promise<number[]> {
      const rows = await s.all((db, t) =>
        db
          .select({ accountId: table(t).accountId })
          .from(table(t))
          .where(eq(table(t).enabled, true))
          .orderBy(asc(table(t).accountId)),
      );
      return rows.map((r) => r.accountId);
    },

    /** Every account with a row, with what the running server last reported (CLI listing). */
    async list(s: DataStore): Promise<({ accountId: number } & SwitchedFeature)[]> {
      const rows = await s.all((db, t) => db.select().from(table(t)));
      return rows.map((row) => ({ accountId: row.accountId, ...fromRow(row) }));
    },
  };
}

function fromRow(row: Columns<"chatSettings">): SwitchedFeature {
  return {
    enabled: row.enabled,
    state: row.state,
    stateSince: row.stateSince,
    reason: row.reason,
    updatedAt: row.updatedAt,
  };
}
