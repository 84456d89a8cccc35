import type { Account } from "../../db/accounts.ts";
import type { ChatState } from "../../db/schema-enums.ts";
import {
  type AlertFields,
  type AlertType,
  COMMAND_REFUSALS,
  type CommandRefusal,
  type ModerationFilter,
  type ModerationLogAction,
} from "../vocabulary.ts";
import type { ChatMessageEvent } from "./eventsub-message.ts";
import type { Speaker } from "./feed.ts";
import type { StreamState } from "./stream-state.ts";

/**
 * Features meet here instead of calling each other (PocketBase's `app.OnRecordCreate(...)`): one
 * feature emits a domain event, the others bind to it. Handlers run in the order they were bound,
 * synchronously; `bind` returns the unbinding. `emit` allocates nothing (it runs on chat's hot path).
 */
export class Hook<A, B = undefined, R = void> {
  #handlers: ((a: A, b: B) => R)[] = [];

  bind(handler: (a: A, b: B) => R): () => void {
    this.#handlers = [...this.#handlers, handler];
    return () => {
      this.#handlers = this.#handlers.filter((h) => h !== handler);
    };
  }

  /** Whether anything is bound (an emitter may skip building the event). */
  get bound(): boolean {
    return this.#handlers.length > 0;
  }

  emit(a: A, b: B): void {
    const handlers = this.#handlers;
    for (let i = 0; i < handlers.length; i++) handlers[i]?.(a, b);
  }

  /** Every handler's answer, in order (for the few events whose emitter needs them). */
  collect(a: A, b: B): R[] {
    return this.#handlers.map((h) => h(a, b));
  }
}

/** A line of cuebot's own waiting to be sent in a channel (chat/send-queue.ts's `QueuedReply`). */
export interface OwnLine {
  text: string;
  replyTo: string;
  command: string;
  caller: string;
  /** Ahead of the waiting replies, never skipped for a full queue (the raid shield's line). */
  urgent?: boolean;
}

/** A channel this instance reads and speaks in, as features beside chat see it (chat/channels.ts). */
export interface SpokenChannel {
  readonly accountId: number;
  readonly broadcasterId: string;
  /** Who reads and speaks for the channel: whose token acts (the bot account's, or the streamer's). */
  readonly speaker: Speaker;
  readonly state: ChatState;
  readonly queue: { readonly size: number; push(line: OwnLine): void };
}

/** An alert shown on the overlay, with the chat line its type thanks with (null: none). */
export interface AlertDelivered {
  accountId: number;
  type: string;
  chatLine: string | null;
}

/**
 * An alert event as it arrives from Twitch, once per event (stored under its key first, so a
 * redelivery or another instance's copy is none), before the overlay shows it: whatever reacts to it
 * (actions) starts at once, never behind the overlay's queue. A test alert is none.
 */
export interface AlertReceived {
  accountId: number;
  type: AlertType;
  fields: AlertFields;
}

/** A command of cuebot's answered in chat (a built-in or the channel's own). */
export interface CommandAnswered {
  accountId: number;
  command: string;
  caller: string;
  reply: string;
}

/** A chat command that got no reply because a limit kept it from chat (every one, never thinned out). */
export interface CommandRefused {
  accountId: number;
  /** The chat message that typed it. */
  messageId: string;
  command: string;
  caller: string;
  refused: CommandRefusal;
}

/** What chat moderation did (server/moderation/): the log keeps it, and whoever binds it reacts. */
export interface ModerationAction {
  accountId: number;
  action: ModerationLogAction;
  /** The filter that caught the line (`links` for a permit); null for the shield. */
  filter: ModerationFilter | null;
  /** Who it was done to (for the shield: the channel). */
  user: { id: string; login: string; name: string };
  /** A timeout's length, or how long a permit or the shield holds. */
  seconds: number | null;
  /** The caught line (kept 7 days in the log); null when there is none. */
  text: string | null;
}

/** Every domain event of the live layer (`ctx.live.hooks`). */
export class LiveHooks {
  /** A chatter's line in a channel (never cuebot's own echo), before it is answered. */
  readonly chatLine = new Hook<number, ChatMessageEvent>();
  readonly commandAnswered = new Hook<CommandAnswered>();
  /** A command a limit kept from a reply (the demo chat's note under the line binds it). */
  readonly commandRefused = new Hook<CommandRefused>();
  /** An alert event arrived (and was stored), before the overlay shows it (actions bind it). */
  readonly alertReceived = new Hook<AlertReceived>();
  /** An alert was shown; a handler that posts its chat line answers true. */
  readonly alertDelivered = new Hook<AlertDelivered, undefined, boolean>();
  /** The stream went online or offline (or is not known any more: null), by account. */
  readonly streamChanged = new Hook<number, StreamState | null>();
  readonly moderationAction = new Hook<ModerationAction>();
}

/** A chat line on its way to an answer, as each stage sees it. */
export interface ChatLine {
  account: Account;
  event: ChatMessageEvent;
  /** The triggers of the enabled built-in commands and their aliases. */
  builtIns: ReadonlySet<string>;
  /** Runs a line (an alias's target) as a built-in command: its outcome, or null when none takes it. */
  runBuiltIn(account: Account, event: ChatMessageEvent): Promise<ChatOutcome> | null;
}

/**
 * What a run came to when it is more than a reply: the line chat is told (null: none), the outcome
 * recorded (`ok`, a command's error code, or `refused`) and why a limit kept it from chat.
 */
export interface ChatResult {
  reply: string | null;
  outcome: string;
  refused: CommandRefusal | null;
}

/**
 * What a stage's run came to: a reply (answered: recorded `ok`), a ChatResult (no reply, and why: a
 * refusal by a limit, `NO_REPLY`; or a command's error), or null: nothing to say and nothing to
 * record (a line moderation punished, a command gone meanwhile). Native chat records every outcome
 * but null once, by the chatter who typed the line (chat/dispatch.ts).
 */
export type ChatOutcome = string | ChatResult | null;

/** The outcome of a line a limit kept from a reply, one per reason (made once: chat's hot path). */
export const NO_REPLY: Readonly<Record<CommandRefusal, ChatResult>> = Object.fromEntries(
  COMMAND_REFUSALS.map((reason) => [
    reason,
    Object.freeze({ reply: null, outcome: "refused", refused: reason }),
  ]),
) as Record<CommandRefusal, ChatResult>;

/** What a stage will answer, once this instance claimed the line (other instances may read it too). */
export interface ChatAnswer {
  /**
   * What the line is recorded under for the Overview and the activity feed: a built-in's name, or the
   * word after `!` (a custom command's name, `quote`, `addquote`, `commands`, an action's command).
   */
  command: string;
  run(): Promise<ChatOutcome>;
}

/** One stage of a chat line: the first stage, by `order`, that takes the line answers it. */
export interface ChatLineStage {
  name: string;
  /** Lower runs first: CHAT_STAGE_ORDER. */
  order: number;
  take(line: ChatLine): ChatAnswer | null | Promise<ChatAnswer | null>;
}

/**
 * Where each stage sits: moderation (server/moderation/live.ts) goes ahead of the commands; actions'
 * commands (actions/chat-stage.ts) after the built-ins, before the channel's own.
 */
export const CHAT_STAGE_ORDER = { moderation: 100, builtIns: 200, actions: 250, custom: 300 } as const;

/** The chat-line stages features registered (`ctx.live.chatStages`), kept in order. */
export class ChatLineStages {
  #stages: readonly ChatLineStage[] = [];
  /** The last merged list, kept while neither the stages nor the extra one change. */
  #merged: { from: readonly ChatLineStage[]; extra: ChatLineStage; list: readonly ChatLineStage[] } | null =
    null;

  /** Adds a stage at its order (after those of the same order); returns its removal. */
  add(stage: ChatLineStage): () => void {
    this.#stages = [...this.#stages, stage].sort((a, b) => a.order - b.order);
    return () => {
      this.#stages = this.#stages.filter((s) => s !== stage);
    };
  }

  /** The stages in order, `extra` among them (chat's own built-ins); the same array until one changes. */
  with(extra: ChatLineStage): readonly ChatLineStage[] {
    if (this.#merged?.from !== this.#stages || this.#merged.extra !== extra)
      this.#merged = {
        from: this.#stages,
        extra,
        list: [...this.#stages, extra].sort((a, b) => a.order - b.order),
      };
    return this.#merged.list;
  }
}
