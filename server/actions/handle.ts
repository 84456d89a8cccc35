import { withoutCommandLead } from "../core/chat-lead.ts";
import type { CoreContext } from "../core/context.ts";
import type { SpokenChannel } from "../live/hooks.ts";
import type { ObsStepRunner } from "../obs/steps.ts";
import type { ActionBook } from "./book.ts";
import type { Action, RunCause } from "./model.ts";
import { ActionRunner, type RunAnswer } from "./runner.ts";
import { readAction, recordActionRun } from "./store.ts";

/** What the runner and the run route read: the store, and OBS's steps (`ctx.obs`). */
export type ActionRunContext = Readonly<Pick<CoreContext, "db" | "clock" | "log">> & {
  readonly obs: ObsStepRunner;
};

/** What became of a run asked for by id (the run route): its answer, busy, or no such action. */
export type RunOutcome = { kind: "ran"; answer: RunAnswer } | { kind: "busy" } | { kind: "missing" };

/** A run asked for by id: the action, and what set it off. */
export interface RunRequest {
  accountId: number;
  actionId: number;
  cause: RunCause;
}

/**
 * Runs carried to the instance that holds the accounts' OBS connections and chat (with Redis, the
 * chat lease holder; redis/action-relay.ts).
 */
export interface RunRelay {
  /** Has the holder run it and relays its outcome; null when no instance holds the live layer. */
  ask(request: RunRequest): Promise<RunOutcome | null>;
  /** Answers the other instances' requests with `run` until the returned stop is called. */
  serve(run: (request: RunRequest) => Promise<RunOutcome>): () => void;
}

/** Actions as they run on this instance's live layer (actions/live.ts). */
export interface ActionsLive {
  /** The channels native chat holds here, by account (live/features.ts `LiveStart`). */
  readonly channels: ReadonlyMap<number, SpokenChannel>;
  readonly book: ActionBook;
}

const CHAT_OFF = "Chat is not connected, so the line was not said.";
const NOTHING_TO_SAY = "The line held nothing to say once command characters were dropped.";

/**
 * The context's actions (`ctx.actions`): the runner of this process (one run of an action at a time,
 * its cooldown), the run route's way in (run here where the live layer runs or none does, else on the
 * instance that holds it, through the relay), and writes telling the live layer's book.
 */
export class ActionsHandle {
  readonly runner: ActionRunner;
  #live: ActionsLive | null = null;
  #stopServing: (() => void) | null = null;

  constructor(
    private readonly ctx: ActionRunContext,
    private readonly relay: RunRelay | null = null,
  ) {
    this.runner = new ActionRunner({
      obs: ctx.obs,
      say: (accountId, text, action) => this.#say(accountId, text, action),
      record: async (accountId, run) => {
        await recordActionRun(ctx.db, accountId, run);
      },
      now: () => ctx.clock.now(),
      log: ctx.log,
    });
  }

  useLive(live: ActionsLive): void {
    this.#live = live;
    this.#stopServing?.();
    this.#stopServing = this.relay?.serve((request) => this.#runHere(request)) ?? null;
  }

  release(live: ActionsLive): void {
    if (this.#live !== live) return;
    this.#live = null;
    this.#stopServing?.();
    this.#stopServing = null;
  }

  /** The account's actions changed here: the live layer reads them again (others: the change feed). */
  changed(accountId: number): void {
    this.#live?.book.drop(accountId);
  }

  /** A trigger's run: false when the action is running or cooling down (nothing runs then). */
  start(accountId: number, action: Action, cause: RunCause): boolean {
    const run = this.runner.start(accountId, action, cause);
    if (!run) return false;
    run.catch((error: unknown) =>
      this.ctx.log.warn("an action's run failed", { accountId, actionId: action.id, error }),
    );
    return true;
  }

  /** Runs an action by id (the run route), where the account's OBS and chat are held. */
  async run(request: RunRequest): Promise<RunOutcome> {
    if (this.#live || !this.relay) return this.#runHere(request);
    return (await this.relay.ask(request)) ?? this.#runHere(request);
  }

  async #runHere({ accountId, actionId, cause }: RunRequest): Promise<RunOutcome> {
    const action = await readAction(this.ctx.db, accountId, actionId);
    if (!action) return { kind: "missing" };
    const run = this.runner.start(accountId, action, cause);
    return run ? { kind: "ran", answer: await run } : { kind: "busy" };
  }

  /** One line in the account's channel, through its send queue (not a reply); null when queued. */
  #say(accountId: number, text: string, action: Action): string | null {
    const channel = this.#live?.channels.get(accountId);
    if (channel?.state !== "connected") return CHAT_OFF;
    if (withoutCommandLead(text).trim() === "") return NOTHING_TO_SAY;
    channel.queue.push({ text, replyTo: "", command: "action", caller: action.name });
    return null;
  }
}
