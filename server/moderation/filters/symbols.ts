// The symbols filter: at least `minLength` characters (code points a reader sees: letters, digits,
// spaces, symbols, emote names), of which at least `percent` % are symbols: neither letters, digits,
// spaces nor emotes. Emoji are symbols; invisible characters and combining marks count as nothing
// (a chat client's invisible "duplicate" suffix is not a symbol).
import type { FilterSettings } from "../../vocabulary.ts";
import type { FilterDefinition, LineTest } from "../filter.ts";
import { countKinds, textWithoutEmotes } from "../line-text.ts";

function compileSymbols({ minLength, percent }: FilterSettings["symbols"]): LineTest {
  return (line) => {
    const all = countKinds(line.text);
    const characters = all.capital + all.letter + all.digit + all.space + all.symbol;
    if (characters < minLength) return false;
    const symbols = line.emotes.length === 0 ? all.symbol : countKinds(textWithoutEmotes(line)).symbol;
    return symbols * 100 >= percent * characters;
  };
}

export const symbols: FilterDefinition<"symbols"> = { name: "symbols", compile: compileSymbols };
