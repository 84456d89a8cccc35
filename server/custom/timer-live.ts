import type { Account } from "../../db/accounts.ts";
import type { ChannelOwnerContext } from "../bot/context.ts";
import { asChannelOwner } from "../bot/upstream.ts";
import type { Clock } from "../core/clock.ts";
import type { CustomContext } from "./context.ts";

/** Whether a channel is live, as Helix Get Streams said at `checkedAt`. */
export interface LiveStatus {
  checkedAt: number;
  /** When the stream began (Unix ms); null while offline, or when Twitch could not be asked. */
  startedAt: number | null;
  /** The stream's category, for `$(game)`; empty while offline. */
  game: string;
}

/** Helix is asked about a channel at most this often. */
export const LIVE_CHECK_MS = 60_000;

const OFFLINE = { startedAt: null, game: "" } as const;

/**
 * How long a heard stream.online is believed over Helix saying "offline" (Get Streams lags behind the
 * event for a minute or two); after that Helix is believed, so a missed stream.offline cannot keep
 * timers running for good.
 */
export const HEARD_ONLINE_TRUST_MS = 5 * 60_000;

/**
 * Whether each channel is live, for its timers: Helix Get Streams with the streamer's token, asked at
 * most once a minute per channel, unless the live layer hears stream.online/offline for it. A channel
 * Twitch cannot be asked about counts as offline until the next look: a timer that cannot know the
 * stream is live stays quiet.
 */
export class StreamWatch {
  readonly #status = new Map<number, LiveStatus>();
  /** Channels whose last look failed: the failure is logged once, not every minute. */
  readonly #failing = new Set<number>();

  constructor(
    private readonly ctx: ChannelOwnerContext & Pick<CustomContext, "live" | "log">,
    private readonly clock: Clock,
  ) {}

  /**
   * The channel's status, asking Twitch first when the last answer is a minute old. When the live
   * layer heard stream.online/offline for the channel (live/stream-state.ts), that is believed: offline needs no
   * question, and online is live even before Get Streams shows the stream (Twitch is asked for the
   * category only) — for HEARD_ONLINE_TRUST_MS after it was heard.
   */
  async status(account: Account): Promise<LiveStatus> {
    const now = this.clock.now();
    const heard = this.ctx.live.streamState(account.id);
    if (heard && !heard.live) return { checkedAt: now, ...OFFLINE };
    const known = this.#status.get(account.id);
    const fresh = known && now - known.checkedAt < LIVE_CHECK_MS && now >= known.checkedAt;
    if (fresh && (!heard || known.startedAt !== null)) return known;
    const asked = await this.#ask(account);
    const status = {
      checkedAt: now,
      ...(heard && asked.startedAt === null && now - heard.heardAt < HEARD_ONLINE_TRUST_MS
        ? { startedAt: heard.since, game: "" }
        : asked),
    };
    this.#status.set(account.id, status);
    return status;
  }

  /** Forgets channels no longer held. */
  keepOnly(accountIds: { has(accountId: number): boolean }): void {
    for (const id of this.#status.keys()) if (!accountIds.has(id)) this.#status.delete(id);
    for (const id of this.#failing) if (!accountIds.has(id)) this.#failing.delete(id);
  }

  async #ask(account: Account): Promise<Omit<LiveStatus, "checkedAt">> {
    try {
      const stream = (
        await asChannelOwner(this.ctx, account, (api, token) => api.streams(token, [account.twitchUserId]))
      )[0];
      this.#failing.delete(account.id);
      const startedAt = stream ? Date.parse(stream.started_at) : Number.NaN;
      if (!stream || !Number.isFinite(startedAt)) return OFFLINE;
      return { startedAt, game: stream.game_name };
    } catch (error) {
      if (!this.#failing.has(account.id)) {
        this.#failing.add(account.id);
        this.ctx.log.info("timers cannot tell whether the channel is live", { accountId: account.id, error });
      }
      return OFFLINE;
    }
  }
}
