import type { Account } from "../../db/accounts.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../http/errors.ts";
import { andThen, type MaybePromise, throwWhenReady } from "../maybe-promise.ts";
import { StoreUnavailableError } from "../store-unavailable.ts";
import type { CommandName } from "./catalog.ts";
import { applySettingsPatch, type CommandSettings, commandSettings, type SettingsPatch } from "./settings.ts";

/** A command's answer: its record, always with the chat line in `text`. */
export type CommandReply = { text: string } & Record<string, unknown>;

export interface CommandCall<C extends CommandName> {
  ctx: Context;
  account: Account;
  command: C;
  /** Who asked (a chat login), for the activity feed; "" when unknown. */
  caller: string;
  /** A test run from the panel: ignores the cooldown and does not start one. */
  test?: boolean;
  /** A panel test of settings not saved yet (validated by the caller): applied over the stored ones. */
  preview?: SettingsPatch;
}

/**
 * The steps every chat command shares: is it enabled, is it cooling down, run it, record the call
 * (time, caller, outcome, latency) for analytics and the activity feed, start the cooldown — after a
 * refusal the command gave too (an unknown name, a bad argument), so a failing command does not answer
 * more often than a working one (CONTRACT §6: no troll floods chat with error lines). When the
 * settings, the cooldown and the command's own lookups answer from memory (a repeated command), the
 * reply is here at once, with no promise made on the way; otherwise it is a promise.
 */
export function runCommand<C extends CommandName>(
  call: CommandCall<C>,
  run: (settings: CommandSettings<C>) => MaybePromise<CommandReply>,
): MaybePromise<{ status: 200; data: CommandReply }> {
  const { ctx, account, command } = call;
  const startedAt = ctx.clock.now();
  const t0 = performance.now();
  const record = (outcome: string) =>
    ctx.events.record({
      accountId: account.id,
      at: startedAt,
      command,
      caller: call.test ? "(panel test)" : call.caller.slice(0, 50),
      outcome,
      latencyMs: Math.round(performance.now() - t0),
    });
  const failed = (error: unknown): never => {
    record(error instanceof ApiError || error instanceof StoreUnavailableError ? error.code : "internal");
    throw error;
  };
  /** Starts the cooldown; the answer stands even if a shared store could not start it. */
  const rest = (settings: CommandSettings<C>): MaybePromise<void> => {
    if (call.test) return;
    let started: MaybePromise<void>;
    try {
      started = ctx.cooldowns.start(account.id, command, settings.cooldownSeconds, startedAt);
    } catch (error) {
      started = Promise.reject(error);
    }
    if (!(started instanceof Promise)) return;
    return started.catch((error: unknown) => {
      ctx.log.warn("a command cooldown could not be started", { command, error });
    });
  };
  const answered = (settings: CommandSettings<C>, data: CommandReply) => {
    record("ok");
    const reply = { status: 200 as const, data };
    return andThen(rest(settings), () => reply);
  };
  /** The command's own refusal (its sentence reaches chat) rests the command as an answer does. */
  const refused = (settings: CommandSettings<C>, error: unknown): never | Promise<never> => {
    if (!(error instanceof ApiError)) throw error;
    return throwWhenReady(andThen(rest(settings), () => error));
  };
  const attempt = (settings: CommandSettings<C>) => {
    let result: MaybePromise<CommandReply>;
    try {
      result = run(settings);
    } catch (error) {
      return refused(settings, error);
    }
    if (result instanceof Promise)
      return result.then(
        (data) => answered(settings, data),
        (error: unknown) => refused(settings, error),
      );
    return answered(settings, result);
  };
  try {
    const replied = andThen(commandSettings(ctx, account.id, command), (stored) => {
      const settings = call.preview ? applySettingsPatch(stored, call.preview) : stored;
      if (!settings.enabled) {
        throw new ApiError(403, "command_disabled", `The ${command} command is turned off for this channel.`);
      }
      const wait = call.test
        ? 0
        : ctx.cooldowns.remainingSeconds(account.id, command, settings.cooldownSeconds, startedAt);
      return andThen(wait, (seconds) => {
        if (seconds > 0) {
          throw new ApiError(429, "on_cooldown", `${command} is on cooldown, ${seconds} s`, {
            "retry-after": String(seconds),
          });
        }
        return attempt(settings);
      });
    });
    return replied instanceof Promise ? replied.catch(failed) : replied;
  } catch (error) {
    return failed(error);
  }
}
