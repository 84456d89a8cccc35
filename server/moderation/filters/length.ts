// The length filter: more than `max` characters (code points: an emoji is one).
import type { FilterSettings } from "../../vocabulary.ts";
import type { FilterDefinition, LineTest } from "../filter.ts";
import { codePointCount } from "../line-text.ts";

function compileLength({ max }: FilterSettings["length"]): LineTest {
  // A text of at most `max` UTF-16 units has at most `max` code points: no need to count.
  return (line) => line.text.length > max && codePointCount(line.text) > max;
}

export const length: FilterDefinition<"length"> = { name: "length", compile: compileLength };
