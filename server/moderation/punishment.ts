import type { FilterSettings, ModerationFilter, ModerationLogAction } from "../vocabulary.ts";

/** What happens to a caught line (CONTRACT §6 "Punishment"). */
export type Punishment =
  | { kind: "delete"; warn: boolean }
  | { kind: "timeout"; seconds: number }
  | { kind: "ban" };

/**
 * A caught line's punishment: a `terms` filter with `action: ban` bans at once; another offence
 * within the hour times the chatter out for the filter's `timeoutSeconds`; a first offence deletes
 * the line and, unless the filter is silent, warns.
 */
export function punishmentOf(filter: ModerationFilter, filters: FilterSettings, repeat: boolean): Punishment {
  if (filter === "terms" && filters.terms.action === "ban") return { kind: "ban" };
  const settings = filters[filter];
  if (repeat) return { kind: "timeout", seconds: settings.timeoutSeconds };
  return { kind: "delete", warn: !settings.silent };
}

/** How the log names a punishment (a deletion with its warning is `warned`). */
export function loggedAction(punishment: Punishment, warned: boolean): ModerationLogAction {
  if (punishment.kind === "delete") return warned ? "warned" : "deleted";
  return punishment.kind;
}

/** The reason Twitch records with a timeout or ban: which filter, never the chatter's words. */
export function punishmentReason(filter: ModerationFilter, punishment: Punishment): string {
  const why = punishment.kind === "ban" ? "a blocked term" : "again within the hour";
  return `cuebot moderation: the ${filter} filter, ${why}`;
}

/** The warning line: the chatter named, then the filter's message (never their words). */
export function warningLine(login: string, message: string): string {
  return `@${login} ${message}`;
}
