import { LRUCache } from "lru-cache";
import { readModerationChannel, readModerationRules } from "../../db/moderation.ts";
import { listRegulars } from "../../db/regulars.ts";
import {
  DEFAULT_FILTER_SETTINGS,
  DEFAULT_SHIELD_SETTINGS,
  type FilterSettings,
  type ShieldSettings,
} from "../vocabulary.ts";
import type { ModerationContext } from "./context.ts";
import { type CompiledFilters, sharedFilters } from "./judge.ts";
import { mergeStoredSettings } from "./settings.ts";

/** One account's moderation as a chat line needs it, read and compiled once. */
export interface AccountRules {
  /** The streamer turned moderation on. */
  enabled: boolean;
  filters: FilterSettings;
  compiled: CompiledFilters;
  shield: ShieldSettings;
  /** Until when the raid shield holds (Unix ms), or null. */
  shieldUntil: number | null;
  /** The streamer's regulars (Twitch ids): a filter exempting regulars reads them. */
  regulars: ReadonlySet<string>;
}

/** How long a read is kept at most: regulars change through custom commands, which do not tell us. */
const KEPT_MS = 30_000;

/**
 * Every account's rules, read from the store on a line's first need and kept until a write here
 * (`forget`), a change by another process (the change feed), or 30 s pass. A line of an account
 * whose rules are held needs no read and no await.
 */
export class RulesCache {
  readonly #held = new LRUCache<number, AccountRules>({ max: 20_000, ttl: KEPT_MS });
  readonly #loading = new Map<number, Promise<AccountRules>>();

  constructor(private readonly ctx: Pick<ModerationContext, "db">) {}

  /** The rules now when held, else a promise of them. */
  get(accountId: number): AccountRules | Promise<AccountRules> {
    return this.#held.get(accountId) ?? this.#load(accountId);
  }

  forget(accountId: number): void {
    this.#held.delete(accountId);
    this.#loading.delete(accountId);
  }

  clear(): void {
    this.#held.clear();
    this.#loading.clear();
  }

  #load(accountId: number): Promise<AccountRules> {
    const loading = this.#loading.get(accountId);
    if (loading) return loading;
    const promise = readRules(this.ctx, accountId).then((rules) => {
      // Kept only if nothing forgot the account meanwhile (a write during the read).
      if (this.#loading.get(accountId) === promise) {
        this.#held.set(accountId, rules);
        this.#loading.delete(accountId);
      }
      return rules;
    });
    promise.catch(() => this.#loading.delete(accountId));
    this.#loading.set(accountId, promise);
    return promise;
  }
}

const NO_REGULARS: ReadonlySet<string> = new Set();

/**
 * Reads an account's rules. Most channels have moderation off: for them only the switch and the
 * shield's end are read (a shield left up is still lifted), nothing is merged or compiled, and no
 * regulars are listed, so the channels a server reads cost one small read each per 30 s.
 */
async function readRules(ctx: Pick<ModerationContext, "db">, accountId: number): Promise<AccountRules> {
  const [channel, stored] = await Promise.all([
    readModerationChannel(ctx.db, accountId),
    readModerationRules(ctx.db, accountId),
  ]);
  const enabled = channel?.enabled ?? false;
  const shieldUntil = stored?.shieldUntil ?? null;
  if (!enabled) return { enabled, ...OFF_SETTINGS, compiled: [], shieldUntil, regulars: NO_REGULARS };
  const { filters, shield } = mergeStoredSettings(stored ?? { filters: null, shield: null });
  const regulars = await listRegulars(ctx.db, accountId);
  return {
    enabled,
    filters,
    compiled: sharedFilters(filters),
    shield,
    shieldUntil,
    regulars: new Set(regulars.map((r) => r.twitchUserId)),
  };
}

/** What an account with moderation off holds: the defaults, never read by the stage. */
const OFF_SETTINGS = { filters: DEFAULT_FILTER_SETTINGS, shield: DEFAULT_SHIELD_SETTINGS };
