import type { Logger } from "../core/log.ts";
import type { ObsStep, ObsStepRunner } from "../obs/steps.ts";
import { ACTION_LIMITS } from "../vocabulary.ts";
import type { Action, ActionRun, ActionStep, RunCause, StepOutcome } from "./model.ts";
import { fillPlaceholders } from "./placeholders.ts";

/*
 * An action's run (CONTRACT §6 "Actions"): its steps in order, OBS's through `ctx.obs.step`, a chat
 * step through the channel's send queue, a wait; the first step that cannot run ends the run there
 * with the error naming its cause. One run of an action at a time, then its cooldown: a trigger
 * meanwhile does nothing. A source shown or hidden for `seconds` goes back as it was after that
 * long, sent by the runner itself, the run's answer not waiting for it. Every run is recorded.
 */

/** What a run came to: the steps that ran, a failed one last. */
export interface RunAnswer {
  ok: boolean;
  steps: StepOutcome[];
}

export interface RunnerDeps {
  obs: ObsStepRunner;
  /** Puts a line in the account's channel (one line, not a reply): null when queued, else why not. */
  say(accountId: number, text: string, action: Action): string | null;
  /** Keeps the run (last run and run log); a failure is logged, the run stands. */
  record(accountId: number, run: ActionRun): Promise<void>;
  now(): number;
  log: Pick<Logger, "warn">;
}

/** An action's run as the runner keys it: busy while running, then cooling down until `until`. */
type Busy = { running: true } | { running: false; until: number };

const keyOf = (accountId: number, actionId: number) => `${accountId}:${actionId}`;

export class ActionRunner {
  readonly #busy = new Map<string, Busy>();
  /** Sources waiting to go back as they were, sent when their time comes. */
  readonly #returns = new Set<ReturnType<typeof setTimeout>>();

  constructor(private readonly deps: RunnerDeps) {}

  /** Whether the action is running or cooling down now. */
  busy(accountId: number, actionId: number): boolean {
    const key = keyOf(accountId, actionId);
    const state = this.#busy.get(key);
    if (!state) return false;
    if (state.running || state.until > this.deps.now()) return true;
    this.#busy.delete(key);
    return false;
  }

  /** Starts a run, or null when the action is running or cooling down (then nothing runs). */
  start(accountId: number, action: Action, cause: RunCause): Promise<RunAnswer> | null {
    if (this.busy(accountId, action.id)) return null;
    const key = keyOf(accountId, action.id);
    this.#busy.set(key, { running: true });
    return this.#run(accountId, action, cause).finally(() => {
      this.#busy.set(key, { running: false, until: this.deps.now() + action.cooldownSeconds * 1000 });
    });
  }

  /** Forgets the sources waiting to go back (the instance stops running actions). */
  close(): void {
    for (const timer of this.#returns) clearTimeout(timer);
    this.#returns.clear();
  }

  async #run(accountId: number, action: Action, cause: RunCause): Promise<RunAnswer> {
    const at = this.deps.now();
    const steps: StepOutcome[] = [];
    for (const step of action.steps) {
      const error = await this.#step(accountId, action, step, cause);
      steps.push({ type: step.type, ok: error === null, error });
      if (error !== null) break;
    }
    const ok = steps.every((s) => s.ok);
    const run: ActionRun = { actionId: action.id, at, ok, cause: cause.trigger, user: cause.user, steps };
    await this.deps
      .record(accountId, run)
      .catch((error: unknown) =>
        this.deps.log.warn("could not record an action's run", { accountId, actionId: action.id, error }),
      );
    return { ok, steps };
  }

  /** Carries out one step: null when done, else the error naming why it could not run. */
  async #step(accountId: number, action: Action, step: ActionStep, cause: RunCause): Promise<string | null> {
    try {
      switch (step.type) {
        case "chat":
          return this.deps.say(accountId, fillPlaceholders(step.text, cause), action);
        case "wait":
          await Bun.sleep(Math.min(Math.max(step.seconds, 0), ACTION_LIMITS.waitSeconds) * 1000);
          return null;
        case "obs.text":
          await this.deps.obs.step(accountId, { ...step, text: fillPlaceholders(step.text, cause) });
          return null;
        case "obs.source":
          await this.#source(accountId, step);
          return null;
        default:
          await this.deps.obs.step(accountId, step);
          return null;
      }
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** Shows or hides a source; with `seconds`, sends it back as it was once they have passed. */
  async #source(accountId: number, step: Extract<ObsStep, { type: "obs.source" }>): Promise<void> {
    const { seconds, ...now } = step;
    const done = await this.deps.obs.step(accountId, now);
    if (seconds === undefined || done.wasVisible === undefined || done.wasVisible === step.visible) return;
    const back = { ...now, visible: done.wasVisible };
    const timer = setTimeout(() => {
      this.#returns.delete(timer);
      this.deps.obs
        .step(accountId, back)
        .catch((error: unknown) =>
          this.deps.log.warn("an action's source did not go back as it was", { accountId, error }),
        );
    }, seconds * 1000);
    // A source's way back never keeps the process up by itself (a stopping server lets it go).
    timer.unref?.();
    this.#returns.add(timer);
  }
}
