// The game commands (!rank, !lastmatch, !today, !stats) on the Commands view: one card for the
// streamer's VALORANT player, which all four report on (typed once, saved for the four), with where the
// statistics come from and the server's key for them; and in each command's card, how much its chat
// line says, with an example of each.
import { GAME_REGIONS, type GameCommandName, type GameRegion } from "../../../../vocabulary.ts";
import { errorMessage, getData, sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { type Field, field, showServerError, textInput, validLocally } from "../../lib/form-fields.ts";
import { announce } from "../../lib/states.ts";
import type { CommandInfo } from "../../lib/types.ts";

export interface GamePlayer {
  region: GameRegion;
  name: string;
  tag: string;
}

/** GET /api/dashboard/game-player. */
export interface GamePlayerInfo {
  player: GamePlayer | null;
  differs: boolean;
  providerKey: boolean;
}

export function loadGamePlayer(): Promise<GamePlayerInfo> {
  return getData<GamePlayerInfo>("/api/dashboard/game-player");
}

const REGION_NAMES: Record<GameRegion, string> = {
  na: "North America",
  eu: "Europe",
  ap: "Asia-Pacific",
  kr: "Korea",
  latam: "Latin America",
  br: "Brazil",
};

/** Where the key comes from (reference/game-provider.md §1.2). */
const KEY_PAGE = "https://api.henrikdev.xyz/dashboard/";

/** The demo's player (server/demo-seed.ts), which its simulated provider knows. */
const DEMO_RIOT_ID = "Kestrel#EUW";

/** "Kestrel#EUW" → name and tag, or why it is not a Riot ID. */
export function parseRiotId(text: string): { name: string; tag: string } | string {
  const at = text.lastIndexOf("#");
  const name = text.slice(0, at).trim();
  const tag = text.slice(at + 1).trim();
  if (at < 0 || name.length < 3 || name.length > 16 || tag.length < 3 || tag.length > 5)
    return "Write the Riot ID as VALORANT shows it: the name (3–16 characters), #, then the tag (3–5), e.g. Kestrel#EUW.";
  return { name, tag };
}

function riotIdOf(player: GamePlayer | null): string {
  return player ? `${player.name}#${player.tag}` : "";
}

/** Where the numbers come from, and the server's key for them (or how to get one). */
function providerNote(info: GamePlayerInfo, demo: boolean): HTMLElement {
  const source = "The statistics come from HenrikDev's VALORANT API. ";
  if (demo)
    return h(
      "p",
      { class: "hint", id: "game-provider" },
      source,
      `In the demo a simulated provider answers instead; it knows ${DEMO_RIOT_ID} in Europe, the demo's player: type !rank in the demo chat.`,
    );
  if (info.providerKey)
    return h(
      "p",
      { class: "hint", id: "game-provider" },
      source,
      "This server has its key (CUEBOT_GAME_API_KEY).",
    );
  return h(
    "p",
    { class: "hint", id: "game-provider" },
    source,
    h("strong", {}, "This server has no key for it yet"),
    ", so these commands answer an error. Get a free Basic key (30 requests a minute, plenty for one channel) on ",
    h("a", { href: KEY_PAGE, rel: "noopener noreferrer", target: "_blank" }, "HenrikDev's dashboard"),
    " or in HenrikDev's Discord (#get-a-key), set it as ",
    h("code", {}, "CUEBOT_GAME_API_KEY"),
    " where cuebot runs, and restart cuebot.",
  );
}

function regionSelect(chosen: GameRegion): HTMLSelectElement {
  return h(
    "select",
    { id: uid("region") },
    GAME_REGIONS.map((r) => h("option", { value: r, selected: r === chosen }, `${REGION_NAMES[r]} (${r})`)),
  );
}

/** The card: the Riot ID and region, typed once and saved for the four game commands. */
export function playerCard(info: GamePlayerInfo, demo: boolean): HTMLElement {
  const fields: Field[] = [];
  const riotId = textInput(riotIdOf(info.player), 24, {
    required: true,
    placeholder: demo ? DEMO_RIOT_ID : "Name#Tag",
  });
  const region = regionSelect(info.player?.region ?? "eu");
  const status = h("p", { class: "save-status", role: "status" });
  const riotField = field(
    "options.name",
    "Riot ID",
    riotId,
    fields,
    h("span", {}, "name#tag, as in VALORANT"),
  );
  // A refused tag lands at the same input.
  fields.push({ path: "options.tag", input: riotId, error: fields[0]!.error });
  riotId.addEventListener("input", () => riotId.setCustomValidity(""));
  const form = h(
    "form",
    { class: "command-form", novalidate: true, id: "game-player-form" },
    h(
      "div",
      { class: "field-row" },
      riotField,
      h("div", { class: "field" }, h("label", { for: region.id }, "Region"), region),
    ),
    info.differs
      ? h(
          "p",
          { class: "hint" },
          "Your game commands report on different players now; saving sets this one for all four.",
        )
      : null,
    h("div", { class: "row" }, h("button", { type: "submit" }, "Save for all four")),
    status,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    fill(status);
    const parsed = parseRiotId(riotId.value);
    riotId.setCustomValidity(typeof parsed === "string" ? parsed : "");
    if (!validLocally(fields) || typeof parsed === "string") return;
    try {
      const saved = await sendData<GamePlayer>("PUT", "/api/dashboard/game-player", {
        ...parsed,
        region: region.value,
      });
      const done = `Saved: !rank, !lastmatch, !today and !stats report on ${riotIdOf(saved)} (${REGION_NAMES[saved.region]}).`;
      fill(status, h("span", { class: "ok-text" }, done));
      announce(done);
    } catch (error) {
      showServerError(error, status, fields);
      announce(`Not saved. ${errorMessage(error)}`, "error");
    }
  });
  const id = uid("game-player");
  return h(
    "section",
    { class: "card command", id: "game-player", "aria-labelledby": id },
    h("h2", { id }, "Your VALORANT player"),
    h("p", { class: "muted" }, "!rank, !lastmatch, !today and !stats all report on this player."),
    form,
    providerNote(info, demo),
  );
}

/** How much each typed game command's line says: a name and an example line per level (CONTRACT §6). */
const DETAIL_LEVELS: Partial<Record<GameCommandName, readonly [string, string][]>> = {
  rank: [
    ["Tier", "Gold 2"],
    ["Tier and RR", "Gold 2 - 45 RR"],
    ["Tier, RR and ELO", "Gold 2 - 45 RR (1145 ELO)"],
  ],
  today: [
    ["Record", "3W - 1L - 0D | +32 RR"],
    ["Record and matches", "4 matches | 3W - 1L - 0D | +32 RR"],
    ["Record, matches and win rate", "4 matches | 3W - 1L - 0D | 75% WR | +32 RR"],
  ],
  stats: [
    ["Short", "Last 10 matches: 60% WR, Jett, HS 24.5%"],
    [
      "A sentence",
      "Over the last 10 competitive matches Kestrel#EUW won 60% (6W 4L 0D), played Jett most and hit 24.5% headshots.",
    ],
    ["Compact", "60% WR | Jett | HS 24.5%"],
  ],
};

/** A game command's own settings in its card: what its line says (the player is set once, above). */
export function gameSection(info: CommandInfo & { command: GameCommandName }): {
  parts: Node[];
  options: () => Record<string, unknown>;
} {
  const note = h("p", { class: "hint" }, "Reports on the player set under “Your VALORANT player”.");
  const levels = DETAIL_LEVELS[info.command];
  if (!levels) return { parts: [note], options: () => ({}) };
  const name = uid("detail");
  const radios = levels.map((_, i) =>
    h("input", { type: "radio", name, value: i + 1, checked: Number(info.options.type) === i + 1 }),
  );
  const legend = uid("detail-legend");
  return {
    parts: [
      note,
      h(
        "fieldset",
        { class: "detail-levels", "aria-labelledby": legend },
        h("legend", { id: legend }, "What the chat line says"),
        levels.map(([label, example], i) =>
          h(
            "label",
            { class: "check detail-level" },
            radios[i]!,
            h("span", {}, h("strong", {}, label), h("span", { class: "chat-line" }, example)),
          ),
        ),
      ),
    ],
    options: () => ({ type: Number(radios.find((r) => r.checked)?.value ?? info.options.type) }),
  };
}
