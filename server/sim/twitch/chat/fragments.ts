import type { SimWorld } from "../world.ts";
import { byLogin } from "./chatters.ts";

/**
 * `message.fragments` as Twitch splits a chat line (reference/twitch-chat.md §3.2): mentions of known
 * users, cheers (a chatter's only) and Twitch emotes apart from plain text, the parts a type does not
 * use null.
 */

export interface SimEmote {
  id: string;
  emote_set_id: string;
  owner_id: string;
  format: ("static" | "animated")[];
}

export interface Fragment {
  type: "text" | "mention" | "cheermote" | "emote";
  text: string;
  cheermote: { prefix: string; bits: number; tier: number } | null;
  emote: SimEmote | null;
  mention: { user_id: string; user_name: string; user_login: string } | null;
}

/** Global emotes with their real ids (set "0", owner "0" as Twitch gives globals). */
const GLOBAL_EMOTE_IDS: Readonly<Record<string, string>> = {
  Kappa: "25",
  PogChamp: "305954156",
  LUL: "425618",
  BibleThump: "86",
  Kreygasm: "41",
  SeemsGood: "64138",
  VoHiYo: "81274",
  HeyGuys: "30259",
  NotLikeThis: "58765",
  ResidentSleeper: "245",
};

/**
 * The emote a code stands for: a global one by its id, any other as the channel's own (a stable id
 * made from the code, the channel's set, owned by the channel).
 */
export function emoteFor(code: string, channelId: string): SimEmote {
  const global = GLOBAL_EMOTE_IDS[code];
  if (global) return { id: global, emote_set_id: "0", owner_id: "0", format: ["static"] };
  let hash = 0;
  for (const ch of code) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) % 1_000_000_007;
  return {
    id: `emotesv2_${hash.toString(16)}`,
    emote_set_id: `${channelId}01`,
    owner_id: channelId,
    format: ["static"],
  };
}

const textFragment = (text: string): Fragment => ({
  type: "text",
  text,
  cheermote: null,
  emote: null,
  mention: null,
});

function cheerFragment(part: string, bits: number): Fragment {
  const tier = bits >= 10_000 ? 10_000 : bits >= 1000 ? 1000 : bits >= 100 ? 100 : 1;
  return { ...textFragment(part), type: "cheermote", cheermote: { prefix: "cheer", bits, tier } };
}

export interface FragmentOptions {
  /** Only a chatter can cheer; a message sent through the API keeps "Cheer100" as text. */
  cheers: boolean;
  /** Emote codes: each word equal to one (case-sensitive, as Twitch matches) is an emote fragment. */
  emotes: ReadonlySet<string>;
  channelId: string;
}

/** The special fragment one whitespace-free part of the text makes, or null for plain text. */
function specialFragment(world: SimWorld, part: string, options: FragmentOptions): Fragment | null {
  if (options.emotes.has(part)) {
    return { ...textFragment(part), type: "emote", emote: emoteFor(part, options.channelId) };
  }
  const mention = /^@([a-zA-Z0-9_]{1,25})$/.exec(part);
  const mentioned = mention ? byLogin(world, mention[1]!) : undefined;
  if (mentioned) {
    return {
      ...textFragment(part),
      type: "mention",
      mention: { user_id: mentioned.id, user_name: mentioned.display_name, user_login: mentioned.login },
    };
  }
  const cheer = options.cheers ? /^Cheer(\d{1,6})$/.exec(part) : null;
  return cheer ? cheerFragment(part, Number(cheer[1])) : null;
}

/** The line's fragments: special parts apart, the plain text between them joined. */
export function fragments(world: SimWorld, text: string, options: FragmentOptions): Fragment[] {
  const out: Fragment[] = [];
  let plain = "";
  for (const part of text.split(/(\s+)/)) {
    const special = specialFragment(world, part, options);
    if (!special) {
      plain += part;
      continue;
    }
    if (plain) out.push(textFragment(plain));
    plain = "";
    out.push(special);
  }
  if (plain) out.push(textFragment(plain));
  return out;
}

/** Whether the line is nothing but emotes (emote-only mode admits it). */
export const onlyEmotes = (text: string, emotes: ReadonlySet<string>) =>
  text.trim() !== "" &&
  text
    .trim()
    .split(/\s+/)
    .every((word) => emotes.has(word));
