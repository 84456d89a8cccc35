import { type ObsSeen, readObs } from "../../db/obs.ts";
import type { CoreContext } from "../core/context.ts";
import { ObsNotConnected } from "./connection.ts";
import { OBS_REASONS } from "./reasons.ts";
import { RelayPages, type RelayTarget } from "./relay-pages.ts";
import {
  RELAY_EVENTS,
  type RelayAnswer,
  type RelayOrder,
  type RelayReport,
  type RelaySettings,
} from "./relay-protocol.ts";
import { type ObsStep, type ObsStepDone, ObsStepFailed, parseObsStep } from "./steps.ts";

/**
 * The overlay relay (`via: overlay`, CONTRACT §6 "Actions"): the account's overlay page, open in OBS
 * on the streamer's machine, connects to OBS itself and carries out the OBS steps cuebot sends it.
 * The password goes down the overlay token's alert stream only (`obs` events), re-sent to open pages
 * as soon as the settings change; the page reports back by POST (obs/routes-relay.ts). A step goes to
 * the first page connected to OBS (waiting up to 10 s for one) and its answer comes back by its id.
 *
 * With Redis every instance hears every report, step and answer over the bus (RedisObsRelayBus in server/redis/):
 * a page's stream may be held by any instance and its POSTs land on any other, while steps are sent
 * from the instance holding the account's OBS (the lease holder, obs/live.ts). The bus carries no
 * password: a settings change says only which account to read again.
 */

/** What travels between instances. */
export type RelayBusMessage =
  | { kind: "settings"; accountId: number }
  | { kind: "report"; accountId: number; report: RelayReport }
  | { kind: "gone"; accountId: number; page: string }
  | { kind: "order"; accountId: number; page: string; order: RelayOrder }
  | { kind: "answer"; accountId: number; answer: RelayAnswer };

/** Carries the relay's messages to every instance, this one included (Redis pub/sub). */
export interface ObsRelayBus {
  /** Rejects when the bus is away. */
  send(message: RelayBusMessage): Promise<void>;
  /** Each message heard; null after the bus reconnected (messages may have been lost). */
  listen(handler: (message: RelayBusMessage | null) => void): void;
}

export interface ObsRelayTimings {
  /** How long a step waits for a page connected to OBS. */
  waitMs: number;
  /** How long a step waits for the page's answer once sent. */
  answerMs: number;
}

export const OBS_RELAY_TIMINGS: ObsRelayTimings = { waitMs: 10_000, answerMs: 10_000 };

export type ObsRelayContext = Readonly<
  Pick<CoreContext, "db" | "secrets" | "clock" | "log" | "externalChanges">
>;

/** One page's open stream on this instance: what it was last sent, so nothing is sent twice. */
interface AttachedStream {
  page: string;
  write(text: string): void;
  lastSettings: string | null;
}

interface PendingStep {
  accountId: number;
  page: string;
  step: ObsStep;
  resolve(done: ObsStepDone): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export class ObsRelay {
  readonly #pages: RelayPages;
  readonly #streams = new Map<number, Set<AttachedStream>>();
  readonly #pending = new Map<string, PendingStep>();
  /** Steps waiting for a page connected to OBS, told at each report of their account. */
  readonly #waiting = new Map<number, Set<(closing?: boolean) => void>>();
  readonly #unsubscribe: () => void;

  constructor(
    private readonly ctx: ObsRelayContext,
    private readonly bus: ObsRelayBus | null = null,
    private readonly timings: ObsRelayTimings = OBS_RELAY_TIMINGS,
  ) {
    this.#pages = new RelayPages(() => ctx.clock.now());
    bus?.listen((message) => {
      if (message) this.#heard(message);
      else this.#resendAll();
    });
    this.#unsubscribe = ctx.externalChanges.subscribe(() => this.#resendAll());
  }

  /**
   * An open alert stream of the account's overlay page; it gets the settings now and at each change.
   * A stream that names no page (the dashboard's preview) carries nothing of the relay.
   */
  attach(accountId: number, page: string | null, write: (text: string) => void): () => void {
    if (page === null) return () => {};
    const stream: AttachedStream = { page, write, lastSettings: null };
    const streams = this.#streams.get(accountId) ?? new Set();
    streams.add(stream);
    this.#streams.set(accountId, streams);
    void this.#sendSettings(accountId, { only: stream });
    return () => {
      streams.delete(stream);
      if (streams.size === 0 && this.#streams.get(accountId) === streams) this.#streams.delete(accountId);
      this.#tell({ kind: "gone", accountId, page });
    };
  }

  /** The account's OBS settings changed (the dashboard's PUT): open pages are told at once. */
  settingsChanged(accountId: number): void {
    this.#tell({ kind: "settings", accountId });
  }

  /** A page's report (POSTed to this instance); false when the account has too many pages open. */
  report(accountId: number, report: RelayReport): boolean {
    if (!this.#pages.heard(accountId, report)) return false;
    this.#tell({ kind: "report", accountId, report });
    return true;
  }

  /** A page's answer to a step (POSTed to this instance). */
  answer(accountId: number, answer: RelayAnswer): void {
    this.#tell({ kind: "answer", accountId, answer });
  }

  /** The account's OBS as its first page connected sees it. */
  seen(accountId: number, target: RelayTarget): ObsSeen {
    return this.#pages.seen(accountId, target);
  }

  /** Carries out the step on the first page connected to OBS (waiting up to 10 s for one). */
  async step(accountId: number, step: ObsStep): Promise<ObsStepDone> {
    // The page reads a step as the bus does (relay-protocol.ts): what it would refuse is not sent.
    if (!parseObsStep(step)) throw new ObsStepFailed(OBS_REASONS.unsendable);
    const page = await this.#connectedPage(accountId);
    const id = crypto.randomUUID();
    const done = new Promise<ObsStepDone>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new ObsNotConnected(OBS_REASONS.overlaySilent(this.timings.answerMs / 1000)));
      }, this.timings.answerMs);
      this.#pending.set(id, { accountId, page, step, resolve, reject, timer });
    });
    this.#tell({ kind: "order", accountId, page, order: { id, step } });
    return done;
  }

  /** Ends the waits (shutdown): every pending step fails as not connected. */
  close(): void {
    this.#unsubscribe();
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(new ObsNotConnected(OBS_REASONS.noOverlayPage));
      this.#pending.delete(id);
    }
    for (const waiters of [...this.#waiting.values()]) for (const giveUp of [...waiters]) giveUp(true);
  }

  #connectedPage(accountId: number): Promise<string> {
    const now = this.#pages.connected(accountId);
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const waiters = this.#waiting.get(accountId) ?? new Set();
      this.#waiting.set(accountId, waiters);
      const stop = () => {
        clearTimeout(timer);
        waiters.delete(check);
        if (waiters.size === 0 && this.#waiting.get(accountId) === waiters) this.#waiting.delete(accountId);
      };
      /** A page is looked for again (`closing`: none will come, the server stops). */
      const check = (closing = false) => {
        const page = closing ? null : this.#pages.connected(accountId);
        if (!page && !closing) return;
        stop();
        if (page) resolve(page);
        else reject(new ObsNotConnected(OBS_REASONS.noOverlayPage));
      };
      const timer = setTimeout(() => {
        stop();
        reject(new ObsNotConnected(OBS_REASONS.noOverlayPage));
      }, this.timings.waitMs);
      waiters.add(check);
    });
  }

  /** To every instance over the bus (which brings it back here too), or here alone without one. */
  #tell(message: RelayBusMessage): void {
    if (!this.bus) {
      this.#heard(message, true);
      return;
    }
    this.bus.send(message).catch((error: unknown) => {
      this.ctx.log.warn("an OBS relay message reached only this instance: Redis is away", {
        kind: message.kind,
        error: (error as Error).message,
      });
      this.#heard(message, true);
    });
  }

  /** `local`: this instance's own message (already applied where it matters). */
  #heard(message: RelayBusMessage, local = false): void {
    if (message.kind === "settings") void this.#sendSettings(message.accountId, { again: true });
    else if (message.kind === "report") this.#reported(message.accountId, message.report, local);
    else if (message.kind === "gone") this.#pages.gone(message.accountId, message.page);
    else if (message.kind === "order") this.#deliver(message.accountId, message.page, message.order);
    else this.#settle(message.accountId, message.answer);
  }

  #reported(accountId: number, report: RelayReport, local: boolean): void {
    if (!local) this.#pages.heard(accountId, report);
    for (const check of [...(this.#waiting.get(accountId) ?? [])]) check();
  }

  #deliver(accountId: number, page: string, order: RelayOrder): void {
    for (const stream of this.#streams.get(accountId) ?? []) {
      if (stream.page === page) stream.write(sse(RELAY_EVENTS.step, order));
    }
  }

  /** The answer of the page the step went to (another page's, or another account's, is ignored). */
  #settle(accountId: number, answer: RelayAnswer): void {
    const pending = this.#pending.get(answer.id);
    if (!pending || pending.accountId !== accountId || pending.page !== answer.page) return;
    this.#pending.delete(answer.id);
    clearTimeout(pending.timer);
    if (answer.ok) {
      const wasVisible = pending.step.type === "obs.source" && answer.wasVisible !== null;
      pending.resolve(wasVisible ? { wasVisible: answer.wasVisible ?? false } : {});
    } else if (answer.failed === "step") pending.reject(new ObsStepFailed(answer.error));
    else pending.reject(new Error(`OBS, through the overlay page: ${answer.error}`));
  }

  #resendAll(): void {
    for (const accountId of this.#streams.keys()) void this.#sendSettings(accountId);
  }

  /**
   * Reads the settings and sends them to the account's open streams that were not sent them yet, or,
   * `again` (the streamer saved them), to every one: a page that gave up (kicked by OBS) tries again.
   */
  async #sendSettings(
    accountId: number,
    options: { only?: AttachedStream; again?: boolean } = {},
  ): Promise<void> {
    const streams = options.only ? [options.only] : [...(this.#streams.get(accountId) ?? [])];
    if (streams.length === 0) return;
    try {
      const text = sse(RELAY_EVENTS.settings, await this.#settingsOf(accountId));
      for (const stream of streams) {
        if (stream.lastSettings === text && !options.again) continue;
        stream.lastSettings = text;
        stream.write(text);
      }
    } catch (error) {
      this.ctx.log.warn("could not read the OBS settings for the overlay page", {
        accountId,
        error: (error as Error).message,
      });
    }
  }

  async #settingsOf(accountId: number): Promise<RelaySettings> {
    const stored = await readObs(this.ctx.db, this.ctx.secrets, accountId);
    if (!stored?.enabled || stored.via !== "overlay") return { enabled: false };
    return { enabled: true, url: stored.url, password: stored.password };
  }
}
