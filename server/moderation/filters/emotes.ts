// The emotes filter: more than `max` emotes (Twitch's emote fragments) in one message.
import type { FilterSettings } from "../../vocabulary.ts";
import type { FilterDefinition, LineTest } from "../filter.ts";

function compileEmotes({ max }: FilterSettings["emotes"]): LineTest {
  return (line) => line.emotes.length > max;
}

export const emotes: FilterDefinition<"emotes"> = { name: "emotes", compile: compileEmotes };
