// Every spam filter by name: adding a filter is its file and one line here (and its name and settings in
// vocabulary.ts).
import type { ModerationFilter } from "../../vocabulary.ts";
import type { FilterDefinition } from "../filter.ts";
import { caps } from "./caps.ts";
import { emotes } from "./emotes.ts";
import { length } from "./length.ts";
import { links } from "./links.ts";
import { repetition } from "./repetition.ts";
import { symbols } from "./symbols.ts";
import { terms } from "./terms.ts";

export const FILTER_DEFINITIONS: { [F in ModerationFilter]: FilterDefinition<F> } = {
  links,
  caps,
  symbols,
  repetition,
  emotes,
  length,
  terms,
};
