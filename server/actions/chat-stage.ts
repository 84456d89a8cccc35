import { foldedWord } from "../../db/chat-bot-rules.ts";
import { userLevelAdmits } from "../../db/schema-enums.ts";
import { callerLevel } from "../live/chat-levels.ts";
import { commandText } from "../live/command-text.ts";
import { CHAT_STAGE_ORDER, type ChatLineStage, type ChatResult, NO_REPLY } from "../live/hooks.ts";
import type { ActionBook } from "./book.ts";
import type { Action, RunCause } from "./model.ts";
import { bounded, MAX_VALUE_POINTS } from "./placeholders.ts";

/** What a command trigger needs beside the book: the regulars, and starting a run. */
export interface CommandTriggers {
  book: Pick<ActionBook, "actions">;
  /** The channel's regulars, from memory (custom/cache.ts fills it). */
  regulars(accountId: number): ReadonlySet<string> | Promise<ReadonlySet<string>>;
  /** Starts the action's run; false when it is running or cooling down (then nothing runs). */
  start(accountId: number, action: Action, cause: RunCause): boolean;
}

/** A run started: recorded `ok` under the command, nothing said (the action's chat steps speak). */
const STARTED: ChatResult = Object.freeze({ reply: null, outcome: "ok", refused: null });

/**
 * Actions' command triggers as a stage of every chat line (live/hooks.ts), after the built-ins and
 * before the channel's own commands: `!name` of an enabled action from a chatter of its level or above
 * starts its run; below the level, or during a run or its cooldown, nothing runs and nothing is said
 * (native chat notes why, at most once per chatter and reason per 30 s). From memory (actions/book.ts):
 * a line asks the store nothing.
 */
export function actionsChatStage(triggers: CommandTriggers): ChatLineStage {
  return {
    name: "actions",
    order: CHAT_STAGE_ORDER.actions,
    async take({ account, event }) {
      const text = commandText(event);
      if (text === null) return null;
      const space = text.search(/\s/u);
      const name = foldedWord(space === -1 ? text.slice(1) : text.slice(1, space));
      if (name === null) return null;
      const action = (await triggers.book.actions(account.id)).commands.get(name);
      if (action?.trigger.type !== "command") return null;
      const level = callerLevel(event, await triggers.regulars(account.id));
      const admitted = userLevelAdmits(action.trigger.level, level);
      const cause: RunCause = {
        trigger: "command",
        user: event.chatterName,
        amount: null,
        reward: null,
        message: space === -1 ? "" : bounded(text.slice(space).trim(), MAX_VALUE_POINTS),
      };
      return {
        command: name,
        run: async () => {
          if (!admitted) return NO_REPLY.user_level;
          return triggers.start(account.id, action, cause) ? STARTED : NO_REPLY.cooldown;
        },
      };
    },
  };
}
