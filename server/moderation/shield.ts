import type { Account } from "../../db/accounts.ts";
import { listActiveShields, writeShieldUntil } from "../../db/moderation.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";
import type { SpokenChannel } from "../live/hooks.ts";
import type { HelixError } from "../twitch/helix-client.ts";
import type { ModerationContext } from "./context.ts";
import type { Enforcer } from "./enforcer.ts";
import type { AccountRules, RulesCache } from "./rules.ts";
import { ShieldWatch } from "./shield-watch.ts";

/** What the shield works with, from the live runtime (moderation/live.ts). */
export interface ShieldDeps {
  rules: RulesCache;
  enforcer: Enforcer;
  channels: ReadonlyMap<number, SpokenChannel>;
  failed(accountId: number, error: HelixError): void;
}

/** The line that says the shield went up. */
export function shieldLine(minutes: number): string {
  const span = minutes === 1 ? "minute" : `${minutes} minutes`;
  return `Followers-only chat is on for the next ${span}: too many spam lines at once.`;
}

/**
 * The raid shield (CONTRACT §6): when enough distinct chatters are caught, or send the same text,
 * within the window (moderation/shield-watch.ts), followers-only chat goes on through Helix Update
 * Chat Settings, one line says so, and it goes off `minutes` after the last trigger. Its end is
 * stored (`moderation_rules.shield_until`) so the dashboard of any instance shows it, a restarted
 * server lifts it on time, and the dashboard's "end now" (which lifts it itself) stops the timer here.
 */
export class ShieldControl {
  readonly #watches = new Map<number, ShieldWatch>();
  readonly #timers = new Map<number, ReturnType<typeof setTimeout>>();
  #closed = false;

  constructor(
    private readonly ctx: ModerationContext,
    private readonly deps: ShieldDeps,
  ) {}

  /** Every line of a chatter below the exempt levels: the same text from many raises it. */
  said(
    channel: SpokenChannel,
    account: Account,
    rules: AccountRules,
    event: ChatMessageEvent,
    now: number,
  ): void {
    if (!rules.shield.enabled) return;
    if (this.#watch(account.id).said(event.chatterId, event.text, now, rules.shield))
      this.#raise(channel, account, rules, now);
  }

  /** A chatter caught by a filter: many distinct ones raise it. */
  caught(
    channel: SpokenChannel,
    account: Account,
    rules: AccountRules,
    chatterId: string,
    now: number,
  ): void {
    if (!rules.shield.enabled) return;
    if (this.#watch(account.id).caught(chatterId, now, rules.shield))
      this.#raise(channel, account, rules, now);
  }

  /** Timers for the shields a stopped server left up (lifted at once when overdue). */
  resume(): void {
    void listActiveShields(this.ctx.db)
      .then((shields) => {
        for (const { accountId, until } of shields) this.#schedule(accountId, until);
      })
      .catch((error: unknown) => this.ctx.log.warn("could not read the raid shields left on", { error }));
  }

  /** The stored end changed (the dashboard ended it, or another write): follow it. */
  recheck(accountId?: number): void {
    const ids = accountId === undefined ? [...this.#timers.keys()] : [accountId];
    for (const id of ids) void this.#follow(id);
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  #watch(accountId: number): ShieldWatch {
    let watch = this.#watches.get(accountId);
    if (!watch) {
      watch = new ShieldWatch();
      this.#watches.set(accountId, watch);
    }
    return watch;
  }

  #raise(channel: SpokenChannel, account: Account, rules: AccountRules, now: number): void {
    const until = now + rules.shield.minutes * 60_000;
    const up = rules.shieldUntil !== null && rules.shieldUntil > now;
    rules.shieldUntil = until;
    this.#schedule(account.id, until);
    void writeShieldUntil(this.ctx.db, account.id, until, now).catch((error: unknown) =>
      this.ctx.log.warn("could not store the raid shield's end", { accountId: account.id, error }),
    );
    if (up) return;
    this.#watch(account.id).reset();
    this.#followersOnly(channel, true);
    channel.queue.push({
      text: shieldLine(rules.shield.minutes),
      replyTo: "",
      command: "shield",
      caller: "shield",
    });
    this.ctx.live.hooks.moderationAction.emit(
      {
        accountId: account.id,
        action: "shield",
        filter: null,
        user: { id: account.twitchUserId, login: account.login, name: account.displayName },
        seconds: rules.shield.minutes * 60,
        text: null,
      },
      undefined,
    );
  }

  #followersOnly(channel: SpokenChannel, on: boolean): void {
    const helix = this.ctx.helixApi;
    if (!helix) return;
    const ids = { broadcasterId: channel.broadcasterId, moderatorId: channel.speaker.userId };
    this.deps.enforcer.enqueue({
      urgent: true,
      holder: { accountId: channel.accountId, speaker: channel.speaker },
      run: (token) => helix.setFollowersOnly(token, { ...ids, on }),
      failed: (error) => this.deps.failed(channel.accountId, error),
    });
  }

  #schedule(accountId: number, until: number): void {
    if (this.#closed) return;
    const existing = this.#timers.get(accountId);
    if (existing) clearTimeout(existing);
    const timer = setTimeout(() => void this.#follow(accountId), Math.max(0, until - this.ctx.clock.now()));
    timer.unref?.();
    this.#timers.set(accountId, timer);
  }

  /** Reads the stored end afresh: still ahead → wait for it; passed → lift; gone → nothing to do. */
  async #follow(accountId: number): Promise<void> {
    this.deps.rules.forget(accountId);
    const rules = await this.deps.rules.get(accountId);
    const now = this.ctx.clock.now();
    if (rules.shieldUntil !== null && rules.shieldUntil > now) {
      this.#schedule(accountId, rules.shieldUntil);
      return;
    }
    const timer = this.#timers.get(accountId);
    if (timer) clearTimeout(timer);
    this.#timers.delete(accountId);
    if (rules.shieldUntil === null) return;
    rules.shieldUntil = null;
    await writeShieldUntil(this.ctx.db, accountId, null, now);
    const channel = this.deps.channels.get(accountId);
    if (channel) this.#followersOnly(channel, false);
    else
      this.ctx.log.warn("the raid shield ended while chat was away: followers-only chat stays on", {
        accountId,
      });
  }
}
