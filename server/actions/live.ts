import type { SpokenChannel } from "../live/hooks.ts";
import type { StreamState } from "../live/stream-state.ts";
import type { AlertFields, AlertType } from "../vocabulary.ts";
import { ActionBook } from "./book.ts";
import { actionsChatStage } from "./chat-stage.ts";
import type { ActionsContext } from "./context.ts";
import type { ActionsLive } from "./handle.ts";
import type { Action, RunCause } from "./model.ts";
import { alertCause, alertSetsOff, streamCause, streamSetsOff, streamTransition } from "./triggers.ts";

/**
 * Actions' triggers on the instance that runs the live layer (with Redis, the chat lease holder, which
 * holds the accounts' OBS connections too): a command (a chat-line stage), an alert event as it
 * arrives (the `alertReceived` hook, ahead of the overlay), the stream going online or offline (the
 * `streamChanged` hook). Each reads the account's enabled actions from memory (actions/book.ts,
 * dropped by writes and the change feed) and starts runs through `ctx.actions`.
 */
export class ActionTriggers implements ActionsLive {
  readonly book: ActionBook;
  /** The last stream state heard per account, to tell a transition from the same event again. */
  readonly #streams = new Map<number, StreamState>();
  #stops: (() => void)[] = [];

  constructor(
    private readonly ctx: ActionsContext,
    readonly channels: ReadonlyMap<number, SpokenChannel>,
  ) {
    this.book = new ActionBook(ctx.db);
  }

  start(): void {
    const { ctx } = this;
    const start = (accountId: number, action: Action, cause: RunCause) =>
      ctx.actions.start(accountId, action, cause);
    const regulars = (accountId: number) => ctx.chatBot.regulars(accountId);
    this.#stops = [
      ctx.live.chatStages.add(actionsChatStage({ book: this.book, regulars, start })),
      ctx.live.hooks.alertReceived.bind(({ accountId, type, fields }) =>
        this.#alert(accountId, type, fields),
      ),
      ctx.live.hooks.streamChanged.bind((accountId, state) => this.#stream(accountId, state)),
      ctx.externalChanges.subscribe(() => this.book.clear()),
    ];
    ctx.actions.useLive(this);
  }

  close(): void {
    this.ctx.actions.release(this);
    for (const stop of this.#stops.splice(0)) stop();
  }

  #alert(accountId: number, type: AlertType, fields: AlertFields): void {
    this.#fire(accountId, (action) => alertSetsOff(action.trigger, type, fields), alertCause(fields));
  }

  #stream(accountId: number, state: StreamState | null): void {
    const before = this.#streams.get(accountId) ?? null;
    if (!state || !streamTransition(before, state)) return;
    this.#streams.set(accountId, state);
    const cause = async () => streamCause((await this.ctx.accounts.account(accountId))?.displayName ?? "");
    this.#fire(accountId, (action) => streamSetsOff(action.trigger, state.live), cause);
  }

  /** Starts every enabled action of the account that `setsOff` picks (alert and stream triggers). */
  #fire(
    accountId: number,
    setsOff: (action: Action) => boolean,
    cause: RunCause | (() => Promise<RunCause>),
  ): void {
    const work = async () => {
      const { alerts, streams } = await this.book.actions(accountId);
      const picked = [...alerts, ...streams].filter(setsOff);
      if (picked.length === 0) return;
      const why = typeof cause === "function" ? await cause() : cause;
      for (const action of picked) this.ctx.actions.start(accountId, action, why);
    };
    work().catch((error: unknown) =>
      this.ctx.log.warn("an action's trigger could not be read", { accountId, error }),
    );
  }
}
