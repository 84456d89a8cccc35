import { type ObsSeen, type ObsSettings, readObs, writeObsSeen, writeObsSettings } from "../../db/obs.ts";
import { OBS_DEFAULT_URL } from "../vocabulary.ts";
import type { ObsContext } from "./context.ts";
import { OBS_REASONS } from "./reasons.ts";

/**
 * The dashboard's OBS settings and connection (CONTRACT §6 "Actions"): the settings as stored, the
 * state as the connection sees it (this instance's, else what the holding instance last stored).
 */

export type ObsView = Omit<ObsSettings, "password"> & ObsSeen;

const NOTHING_SEEN = { obsVersion: null, scenes: [], sources: [] };

/** The state the settings alone decide (off), or the overlay pages' (via overlay); null while cuebot connects. */
function settledBySettings(
  ctx: ObsContext,
  accountId: number,
  settings: Omit<ObsSettings, "password"> & { password: string | null | undefined },
  now: number | null,
): ObsSeen | null {
  if (!settings.enabled) return { state: "off", since: now, reason: null, ...NOTHING_SEEN };
  if (settings.via === "overlay") {
    const target = { url: settings.url, hasPassword: Boolean(settings.password), since: now };
    return ctx.obs.relay.seen(accountId, target);
  }
  return null;
}

export async function obsView(ctx: ObsContext, accountId: number): Promise<ObsView> {
  const stored = await readObs(ctx.db, ctx.secrets, accountId);
  if (!stored) {
    const settings = { enabled: false, url: OBS_DEFAULT_URL, via: "server" as const };
    return { ...settings, state: "off", since: null, reason: null, ...NOTHING_SEEN };
  }
  const { enabled, url, via } = stored;
  const settled = settledBySettings(ctx, accountId, stored, stored.since);
  const seen = settled ?? ctx.obs.seen(accountId, { url, password: stored.password }) ?? stored;
  return {
    enabled,
    url,
    via,
    state: seen.state,
    since: seen.since,
    reason: seen.reason,
    obsVersion: seen.obsVersion,
    scenes: seen.scenes,
    sources: seen.sources,
  };
}

/** Whether a password is stored (it is never answered), so the dashboard can say so. */
export async function obsPasswordStored(ctx: ObsContext, accountId: number): Promise<boolean> {
  return ((await readObs(ctx.db, ctx.secrets, accountId))?.password ?? null) !== null;
}

/** Saves the settings (`password` undefined keeps the stored one, null clears it) and tells the connection. */
export async function changeObs(
  ctx: ObsContext,
  accountId: number,
  settings: Omit<ObsSettings, "password"> & { password: string | null | undefined },
): Promise<void> {
  const now = ctx.clock.now();
  await writeObsSettings(ctx.db, ctx.secrets, accountId, settings, now);
  const seen = settledBySettings(ctx, accountId, settings, now) ?? {
    state: "connecting",
    since: now,
    reason: OBS_REASONS.connecting(settings.url),
    ...NOTHING_SEEN,
  };
  await writeObsSeen(ctx.db, accountId, seen);
  ctx.obs.changed(accountId);
}
