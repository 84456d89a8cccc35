import type { Account } from "../../db/accounts.ts";
import { listActiveShields, writeShieldUntil } from "../../db/moderation.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";
import type { TokenHolder } from "../live/feed.ts";
import type { SpokenChannel } from "../live/hooks.ts";
import { HelixError } from "../twitch/helix-client.ts";
import { liftFollowersOnly } from "./acting.ts";
import type { ModerationContext } from "./context.ts";
import type { AccountRules, RulesCache } from "./rules.ts";
import { ShieldWatch } from "./shield-watch.ts";

/** What the shield works with, from the live runtime (moderation/live.ts). */
export interface ShieldDeps {
  rules: RulesCache;
  /** A call with the channel's speaker token (live/speaker-tokens.ts `withToken`). */
  withToken<T>(holder: TokenHolder, call: (token: string) => Promise<T>): Promise<T>;
  failed(accountId: number, error: HelixError): void;
}

/** A lift that failed is tried again after this long. */
const RETRY_MS = 30_000;

/** The same text counts only from lines this long: a "GG", "F", "W" or "LUL" wave is cheering, not a raid. */
const SAME_TEXT_MIN = 5;

/** The line that says the shield went up. */
export function shieldLine(minutes: number): string {
  const span = minutes === 1 ? "minute" : `${minutes} minutes`;
  return `Followers-only chat is on for the next ${span}: too many spam lines at once.`;
}

/**
 * Whether a line counts toward "the same text from many": not a command (`!join` waves), not a
 * cheer of a few characters, not only Twitch emotes (a PogChamp wave).
 */
function sameTextCounts(event: ChatMessageEvent): boolean {
  const text = event.text.trim();
  if (text.length < SAME_TEXT_MIN || text.startsWith("!")) return false;
  if (event.emotes.length === 0) return true;
  const emotes = new Set(event.emotes);
  return text.split(/\s+/).some((word) => !emotes.has(word));
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
  /** Accounts whose shield is on its way up (one Helix round trip at a time). */
  readonly #raising = new Set<number>();
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
    if (!rules.shield.enabled || !sameTextCounts(event)) return;
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

  /**
   * A trigger: while the shield is up its end moves on; otherwise it goes up, unless followers-only
   * chat is on already (the streamer's own mode, or a moderator's: left as it is, and never lifted).
   */
  #raise(channel: SpokenChannel, account: Account, rules: AccountRules, now: number): void {
    const until = now + rules.shield.minutes * 60_000;
    if (rules.shieldUntil !== null && rules.shieldUntil > now) {
      rules.shieldUntil = until;
      void this.#storeEnd(account.id, until, now);
      return;
    }
    if (this.#raising.has(account.id)) return;
    this.#raising.add(account.id);
    this.#watch(account.id).reset();
    void this.#goUp(channel, account, rules, now)
      .catch((error: unknown) => {
        if (error instanceof HelixError) this.deps.failed(account.id, error);
        this.ctx.log.warn("could not raise the raid shield", { accountId: account.id, error });
      })
      .finally(() => this.#raising.delete(account.id));
  }

  async #goUp(channel: SpokenChannel, account: Account, rules: AccountRules, now: number): Promise<void> {
    const helix = this.ctx.helixApi;
    if (!helix) return;
    const holder = { accountId: account.id, speaker: channel.speaker };
    const ids = { broadcasterId: channel.broadcasterId, moderatorId: channel.speaker.userId };
    if (await this.deps.withToken(holder, (token) => helix.followersOnly(token, channel.broadcasterId)))
      return;
    await this.deps.withToken(holder, (token) => helix.setFollowersOnly(token, { ...ids, on: true }));
    const until = now + rules.shield.minutes * 60_000;
    rules.shieldUntil = until;
    await this.#storeEnd(account.id, until, now);
    channel.queue.push({
      text: shieldLine(rules.shield.minutes),
      replyTo: "",
      command: "shield",
      caller: "shield",
      urgent: true,
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

  /** Stores the shield's end, then waits for it (stored first: a read meanwhile sees it). */
  async #storeEnd(accountId: number, until: number, now: number): Promise<void> {
    try {
      await writeShieldUntil(this.ctx.db, accountId, until, now);
    } catch (error) {
      this.ctx.log.warn("could not store the raid shield's end", { accountId, error });
    }
    this.#schedule(accountId, until);
  }

  #schedule(accountId: number, until: number): void {
    if (this.#closed) return;
    const existing = this.#timers.get(accountId);
    if (existing) clearTimeout(existing);
    const timer = setTimeout(() => void this.#follow(accountId), Math.max(0, until - this.ctx.clock.now()));
    timer.unref?.();
    this.#timers.set(accountId, timer);
  }

  /**
   * Reads the stored end afresh: still ahead → wait for it; gone (ended from the dashboard) →
   * nothing to do; passed → followers-only off as the acting account (no open channel needed), then
   * the end cleared. Anything failing is tried again in 30 s: a shield is never left up for good.
   */
  async #follow(accountId: number): Promise<void> {
    try {
      this.deps.rules.forget(accountId);
      const rules = await this.deps.rules.get(accountId);
      const now = this.ctx.clock.now();
      if (rules.shieldUntil !== null && rules.shieldUntil > now) {
        this.#schedule(accountId, rules.shieldUntil);
        return;
      }
      if (rules.shieldUntil !== null) {
        const account = await this.ctx.accounts.account(accountId);
        if (account) await liftFollowersOnly(this.ctx, account);
        await writeShieldUntil(this.ctx.db, accountId, null, now);
        rules.shieldUntil = null;
      }
      const timer = this.#timers.get(accountId);
      if (timer) clearTimeout(timer);
      this.#timers.delete(accountId);
    } catch (error) {
      this.ctx.log.warn("could not lift the raid shield; trying again in 30 s", { accountId, error });
      this.#schedule(accountId, this.ctx.clock.now() + RETRY_MS);
    }
  }
}
