// The repetition filter: a character, word or emote repeated more than `max` times in a row.
// - characters: the same code point, one after another (`noooooooooooo`), spaces and LAUGHTER aside
//   (`ㅋㅋㅋㅋ`, `wwww`, `8888`, `草草草` are how Korean, Japanese, Thai and Chinese chat laughs); the line is
//   read as a viewer sees it (text-fold.ts visibleText: lower case, invisible characters and combining
//   marks gone), so `❤️❤️❤️` is a run of hearts and an invisible character does not break a run;
// - words and emotes: the same word, separated by white space only (`lol lol lol`, `Kappa Kappa`),
//   case aside.
import type { FilterSettings } from "../../vocabulary.ts";
import type { FilterDefinition, LineTest } from "../filter.ts";
import { visibleText } from "../text-fold.ts";

/** Characters chat laughs with by the dozen, as `visibleText` gives them (ㅋ and ㅎ become jamo). */
const LAUGHTER: ReadonlySet<string> = new Set([..."ㅋㅎw85草笑"].map(visibleText));

/** The longest run of one code point in `text`, white space and LAUGHTER aside. */
export function longestCharacterRun(text: string): number {
  let longest = 0;
  let run = 0;
  let previous = "";
  for (const char of text) {
    run = char === previous ? run + 1 : 1;
    previous = char;
    if (run > longest && char.trim() !== "" && !LAUGHTER.has(char)) longest = run;
  }
  return longest;
}

/** The longest run of one word in `text` (words split on white space). */
export function longestWordRun(text: string): number {
  let longest = 0;
  let run = 0;
  let previous = "";
  for (const word of text.split(/\s+/)) {
    if (word === "") continue;
    run = word === previous ? run + 1 : 1;
    previous = word;
    if (run > longest) longest = run;
  }
  return longest;
}

function compileRepetition({ max }: FilterSettings["repetition"]): LineTest {
  return (line) => {
    const visible = visibleText(line.text);
    return longestCharacterRun(visible) > max || longestWordRun(visible) > max;
  };
}

export const repetition: FilterDefinition<"repetition"> = { name: "repetition", compile: compileRepetition };
