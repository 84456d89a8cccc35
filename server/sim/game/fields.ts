/**
 * Field shapes the game provider repeats across its answers: tier names and images, card art, season
 * ids, its two date texts, and the elo a tier and RR add up to.
 */

const TIER_NAMES = [
  "Unrated",
  "Unknown 1",
  "Unknown 2",
  ...["Iron", "Bronze", "Silver", "Gold", "Platinum", "Diamond", "Ascendant", "Immortal"].flatMap((t) => [
    `${t} 1`,
    `${t} 2`,
    `${t} 3`,
  ]),
  "Radiant",
];
const TIER_SET = "03621f52-342b-cf4e-4f86-9350a49c6d04";
export const SEASON_ID = "34093c29-4306-43de-452f-3f944bde22be";
export const CURRENT_ACT = "e9a3";
export const MEDIA = "https://media.valorant-api.com";

export function tierName(tier: number): string {
  return TIER_NAMES[tier] ?? "Unrated";
}

export function tierImages(tier: number) {
  const base = `${MEDIA}/competitivetiers/${TIER_SET}/${tier}`;
  return {
    small: `${base}/smallicon.png`,
    large: `${base}/largeicon.png`,
    triangle_down: `${base}/ranktriangledownicon.png`,
    triangle_up: `${base}/ranktriangleupicon.png`,
  };
}

export function cardAssets(cardId: string) {
  const base = `${MEDIA}/playercards/${cardId}`;
  return { small: `${base}/smallart.png`, large: `${base}/largeart.png`, wide: `${base}/wideart.png` };
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "Friday, March 24, 2023 8:53 PM", shifted by `offsetHours` (the history's text is server time, UTC+1). */
export function patchedDate(unixSeconds: number, offsetHours = 0): string {
  const d = new Date((unixSeconds + offsetHours * 3600) * 1000);
  const hours = d.getUTCHours();
  const h12 = hours % 12 === 0 ? 12 : hours % 12;
  const minutes = String(d.getUTCMinutes()).padStart(2, "0");
  return (
    `${WEEKDAYS[d.getUTCDay()]}, ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()} ` +
    `${h12}:${minutes} ${hours < 12 ? "AM" : "PM"}`
  );
}

export function relativeText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "Now";
  if (minutes === 1) return "a minute ago";
  if (minutes < 60) return `${minutes} minutes ago`;
  const hours = Math.round(minutes / 60);
  return hours === 1 ? "an hour ago" : `${hours} hours ago`;
}

export function currentElo(rank: { tier: number; rr: number }): number {
  return (rank.tier - 3) * 100 + rank.rr;
}
