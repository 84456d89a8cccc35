import type { Account } from "../../db/accounts.ts";
import { StoreUnavailableError } from "../../db/store-unavailable.ts";
import { ApiError } from "../core/errors.ts";
import type { MaybePromise } from "../core/maybe-promise.ts";
import type { CommandRefusal } from "../vocabulary.ts";
import type { CommandName } from "./catalog.ts";
import type { CommandContext } from "./context.ts";
import type { CommandReply } from "./definition.ts";
import { applySettingsPatch, type CommandSettings, commandSettings, type SettingsPatch } from "./settings.ts";

export interface CommandCall<C extends CommandName> {
  ctx: Pick<CommandContext, "db" | "clock" | "log" | "events" | "cooldowns" | "settingsCache">;
  account: Account;
  command: C;
  /** Who asked (a chat login), for the activity feed; "" when unknown. */
  caller: string;
  /**
   * A run from the dashboard, recorded as a test (listed, never counted): `panel` (the Commands tab's
   * test) ignores the cooldown and does not start one; `line` (Bot setup's "Test this line", called as
   * the bot calls it) keeps it, as a bot's call would.
   */
  test?: "panel" | "line";
  /** A panel test of settings not saved yet (validated by the caller): applied over the stored ones. */
  preview?: SettingsPatch;
  /**
   * A last gate, asked once the command is enabled and its cooldown claimed, before it runs (native
   * chat's budgets): a refusal drops the run silently (RunNotAdmitted, saying why), its cooldown
   * claim given back.
   */
  gate?: () => MaybePromise<CommandRefusal | null>;
  /** Native chat records each line it answers itself, once (chat/dispatch.ts): the run records nothing. */
  unrecorded?: boolean;
}

/**
 * Thrown when a run's `gate` refused it: nothing ran, nothing is answered; `reason` says why.
 */
export class RunNotAdmitted extends Error {
  constructor(readonly reason: CommandRefusal) {
    super("not admitted");
  }
}

/** The outcome a failed run is recorded with: the error's code, or `internal`. */
export function outcomeOf(error: unknown): string {
  return error instanceof ApiError || error instanceof StoreUnavailableError ? error.code : "internal";
}

/**
 * The steps every chat command shares: is it enabled, claim its cooldown (checked and started in one
 * step, so commands arriving together cannot all pass), the caller's own gate (native chat's budgets),
 * run it, record the call (time, caller, outcome, latency) for analytics and the activity feed. A
 * refusal the command gave (an unknown name, a bad argument) keeps the cooldown like an answer, so a
 * failing command does not answer more often than a working one (CONTRACT §6: no troll floods chat
 * with error lines); a run that gave no answer through no fault of its own (a store outage, an
 * internal error, a closed gate) gives its claim back. When the settings, the cooldown and the
 * command's own lookups answer from memory (a repeated command), the reply is here at once, with no
 * promise made on the way; otherwise it is a promise.
 */
export function runCommand<C extends CommandName>(
  call: CommandCall<C>,
  run: (settings: CommandSettings<C>) => MaybePromise<CommandReply>,
): MaybePromise<{ status: 200; data: CommandReply }> {
  return new CommandRun(call, run).start();
}

/**
 * One run of runCommand. Its steps are methods rather than closures made per call: a repeated command
 * (everything answered from memory) allocates this object and its reply, and a closure only where a
 * promise has to be waited for.
 */
class CommandRun<C extends CommandName> {
  readonly startedAt: number;
  readonly t0: number;

  constructor(
    readonly call: CommandCall<C>,
    readonly run: (settings: CommandSettings<C>) => MaybePromise<CommandReply>,
  ) {
    this.startedAt = call.ctx.clock.now();
    this.t0 = performance.now();
  }

  start(): MaybePromise<{ status: 200; data: CommandReply }> {
    const { ctx, account, command } = this.call;
    try {
      const stored = commandSettings(ctx, account.id, command);
      const replied =
        stored instanceof Promise ? stored.then((value) => this.claim(value)) : this.claim(stored);
      return replied instanceof Promise ? replied.catch((error: unknown) => this.failed(error)) : replied;
    } catch (error) {
      return this.failed(error);
    }
  }

  record(outcome: string): void {
    const { ctx, account, command, test, caller, unrecorded } = this.call;
    if (unrecorded) return;
    ctx.events.record({
      accountId: account.id,
      at: this.startedAt,
      command,
      caller: caller.slice(0, 50),
      outcome,
      latencyMs: Math.round(performance.now() - this.t0),
      test: test !== undefined,
      refused: null,
    });
  }

  failed(error: unknown): never {
    if (error instanceof RunNotAdmitted) throw error;
    this.record(outcomeOf(error));
    throw error;
  }

  /** Is it enabled; then its cooldown claimed (a panel test claims none). */
  claim(stored: CommandSettings<C>): MaybePromise<{ status: 200; data: CommandReply }> {
    const { ctx, account, command, preview, test } = this.call;
    const settings = preview ? applySettingsPatch(stored, preview) : stored;
    if (!settings.enabled) {
      throw new ApiError(403, "command_disabled", `The ${command} command is turned off for this channel.`);
    }
    const wait =
      test === "panel"
        ? 0
        : ctx.cooldowns.claim(account.id, command, settings.cooldownSeconds, this.startedAt);
    return wait instanceof Promise
      ? wait.then((seconds) => this.claimed(settings, seconds))
      : this.claimed(settings, wait);
  }

  claimed(settings: CommandSettings<C>, seconds: number): MaybePromise<{ status: 200; data: CommandReply }> {
    if (seconds > 0) {
      throw new ApiError(429, "on_cooldown", `${this.call.command} is on cooldown, ${seconds} s`, {
        "retry-after": String(seconds),
      });
    }
    return this.admitted(settings);
  }

  /** The caller's gate, once the cooldown is claimed: closed, or failing, gives the claim back. */
  admitted(settings: CommandSettings<C>): MaybePromise<{ status: 200; data: CommandReply }> {
    const { call, startedAt } = this;
    if (!call.gate) return this.attempt(settings);
    let refusal: MaybePromise<CommandRefusal | null>;
    try {
      refusal = call.gate();
    } catch (error) {
      return releaseClaim(call, settings, startedAt, error);
    }
    if (refusal instanceof Promise) {
      return refusal.then(
        (why) => this.opened(settings, why),
        (error: unknown) => releaseClaim(call, settings, startedAt, error),
      );
    }
    return this.opened(settings, refusal);
  }

  opened(
    settings: CommandSettings<C>,
    refusal: CommandRefusal | null,
  ): MaybePromise<{ status: 200; data: CommandReply }> {
    return refusal === null
      ? this.attempt(settings)
      : releaseClaim(this.call, settings, this.startedAt, new RunNotAdmitted(refusal));
  }

  attempt(settings: CommandSettings<C>): MaybePromise<{ status: 200; data: CommandReply }> {
    let result: MaybePromise<CommandReply>;
    try {
      result = this.run(settings);
    } catch (error) {
      return this.refused(settings, error);
    }
    if (result instanceof Promise) {
      return result.then(
        (data) => this.answered(data),
        (error: unknown) => this.refused(settings, error),
      );
    }
    return this.answered(result);
  }

  answered(data: CommandReply): { status: 200; data: CommandReply } {
    this.record("ok");
    return { status: 200 as const, data };
  }

  /** The command's own refusal (its sentence is the answer) keeps the claim; anything else gives it back. */
  refused(settings: CommandSettings<C>, error: unknown): never | Promise<never> {
    if (error instanceof ApiError) throw error;
    return releaseClaim(this.call, settings, this.startedAt, error);
  }
}

/** Gives a run's cooldown claim back, then throws `error`; it stands even if a shared store failed. */
function releaseClaim<C extends CommandName>(
  call: CommandCall<C>,
  settings: CommandSettings<C>,
  startedAt: number,
  error: unknown,
): never | Promise<never> {
  const { ctx, account, command } = call;
  if (call.test === "panel") throw error;
  let released: MaybePromise<void>;
  try {
    released = ctx.cooldowns.release(account.id, command, settings.cooldownSeconds, startedAt);
  } catch (releaseError) {
    released = Promise.reject(releaseError);
  }
  if (!(released instanceof Promise)) throw error;
  return released.then(
    () => {
      throw error;
    },
    (releaseError: unknown) => {
      ctx.log.warn("a command cooldown could not be given back", { command, error: releaseError });
      throw error;
    },
  );
}
