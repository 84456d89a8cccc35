import type { ObsSeen } from "../../db/obs.ts";
import { OBS_REASONS, outcomeOf } from "./reasons.ts";
import { RELAY_PAGE_TTL_MS, type RelayReport } from "./relay-protocol.ts";

/**
 * The overlay pages an account has open (`via: overlay`), as their reports tell: in the order they
 * were first heard, each counting until it has not been heard for RELAY_PAGE_TTL_MS (a closed page
 * stops counting within 15 s). The account's OBS is that of the first page connected to OBS.
 */

interface HeardPage {
  report: RelayReport;
  /** When its state last changed (the dashboard's `since`, the clock's time). */
  since: number;
  /** When it was last heard (monotonic: a page's time to live is not calendar time). */
  lastHeard: number;
}

/** What the dashboard needs besides the page to word its state. */
export interface RelayTarget {
  url: string;
  hasPassword: boolean;
  /** When the settings were saved: `since` while no page is open. */
  since: number | null;
}

/** Most pages counted per account (a leaked overlay link cannot grow the table). */
export const MAX_RELAY_PAGES = 20;

const NOTHING_SEEN = { obsVersion: null, scenes: [], sources: [] };

/** The reason a page's state is in, worded as the server's own connection words it (obs/reasons.ts). */
function reasonOf(report: RelayReport, target: RelayTarget): string | null {
  if (report.state === "connected") return null;
  if (report.state === "connecting") return OBS_REASONS.overlayConnecting(target.url);
  const outcome = outcomeOf(report.code ?? -1, "", target.url, target.hasPassword);
  return outcome.state === report.state
    ? `${OBS_REASONS.overlayFailed} ${outcome.reason}`
    : `${OBS_REASONS.overlayFailed} obs-websocket closed with ${report.code ?? "no code"}.`;
}

export class RelayPages {
  readonly #pages = new Map<number, Map<string, HeardPage>>();

  constructor(
    private readonly now: () => number,
    private readonly ttlMs: number = RELAY_PAGE_TTL_MS,
  ) {}

  /** A page's report; false when the account has MAX_RELAY_PAGES other pages counting. */
  heard(accountId: number, report: RelayReport): boolean {
    const pages = this.#live(accountId);
    const known = pages.get(report.page);
    if (!known && pages.size >= MAX_RELAY_PAGES) return false;
    const since = known && known.report.state === report.state ? known.since : this.now();
    pages.set(report.page, { report, since, lastHeard: performance.now() });
    this.#pages.set(accountId, pages);
    return true;
  }

  /** The page closed its stream: it counts no more (it is heard again with its next report). */
  gone(accountId: number, page: string): void {
    this.#pages.get(accountId)?.delete(page);
  }

  /** The first page connected to OBS, else the first page heard, else none. */
  first(accountId: number): HeardPage | null {
    const pages = [...this.#live(accountId).values()];
    return pages.find((page) => page.report.state === "connected") ?? pages[0] ?? null;
  }

  /** The page steps go to: the first connected to OBS. */
  connected(accountId: number): string | null {
    const first = this.first(accountId);
    return first?.report.state === "connected" ? first.report.page : null;
  }

  /** The account's OBS as the dashboard shows it with `via: overlay`. */
  seen(accountId: number, target: RelayTarget): ObsSeen {
    const first = this.first(accountId);
    if (!first)
      return {
        state: "connecting",
        since: target.since,
        reason: OBS_REASONS.overlay(target.url),
        ...NOTHING_SEEN,
      };
    const { state, obsVersion, scenes, sources } = first.report;
    const connected = state === "connected";
    return {
      state,
      since: first.since,
      reason: reasonOf(first.report, target),
      obsVersion: connected ? obsVersion : null,
      scenes: connected ? scenes : [],
      sources: connected ? sources : [],
    };
  }

  /** The account's pages still counting, the others forgotten. */
  #live(accountId: number): Map<string, HeardPage> {
    const pages = this.#pages.get(accountId) ?? new Map<string, HeardPage>();
    const oldest = performance.now() - this.ttlMs;
    for (const [page, heard] of pages) if (heard.lastHeard < oldest) pages.delete(page);
    if (pages.size === 0) this.#pages.delete(accountId);
    return pages;
  }
}
