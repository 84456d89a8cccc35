import { addModerationLogEntries, type NewModerationLogEntry } from "../../db/moderation.ts";
import type { ModerationContext } from "./context.ts";

/** Entries written together at most; a flood of caught lines waits for the next statement. */
const BATCH = 200;
/** How long an entry waits for others to join it. */
const WAIT_MS = 100;

type Entry = NewModerationLogEntry & { accountId: number };

/**
 * The moderation log's writes, gathered: under a flood one statement carries many entries instead of
 * one statement each (the insert was an eighth of the CPU of a caught line in the bench). An entry
 * waits at most 100 ms; closing writes what waits.
 */
export class ModerationLogWriter {
  #waiting: Entry[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  #writing: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: Pick<ModerationContext, "db" | "log">) {}

  add(entry: Entry): void {
    this.#waiting.push(entry);
    if (this.#waiting.length >= BATCH) this.#flush();
    else this.#timer ??= setTimeout(() => this.#flush(), WAIT_MS);
  }

  /** Writes what waits; settles once everything added so far is written (or failed and logged). */
  close(): Promise<void> {
    this.#flush();
    return this.#writing;
  }

  #flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const entries = this.#waiting;
    if (entries.length === 0) return;
    this.#waiting = [];
    this.#writing = this.#writing.then(() =>
      addModerationLogEntries(this.ctx.db, entries).catch((error: unknown) =>
        this.ctx.log.warn("could not write the moderation log", { entries: entries.length, error }),
      ),
    );
  }
}
