// The caps filter: at least `minLength` letters, of which at least `percent` % are capitals (letters of
// any script; capitals are Unicode upper- and title-case letters), the line's emote names aside (its
// Twitch emotes, and the most used BTTV/FFZ/7TV codes: line-text.ts THIRD_PARTY_EMOTES).
import type { FilterSettings } from "../../vocabulary.ts";
import type { FilterDefinition, LineTest } from "../filter.ts";
import { countKinds, textWithoutAnyEmotes } from "../line-text.ts";

function compileCaps({ minLength, percent }: FilterSettings["caps"]): LineTest {
  return (line) => {
    const counts = countKinds(textWithoutAnyEmotes(line));
    const letters = counts.capital + counts.letter;
    return letters >= minLength && counts.capital * 100 >= percent * letters;
  };
}

export const caps: FilterDefinition<"caps"> = { name: "caps", compile: compileCaps };
