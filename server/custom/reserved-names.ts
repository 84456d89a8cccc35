/**
 * The names native chat reads before any custom command (issue 24): managing commands (`!commands`,
 * `!addcom`, …), quotes (`!quote`, `!addquote`, `!delquote`), regulars (`!regulars`) and moderation's
 * `!permit` (read ahead of every command while moderation is on). A custom
 * command of such a name would never answer, so neither chat, the dashboard nor an import may add one.
 */

import { PERMIT_TRIGGER } from "../vocabulary.ts";
import { MANAGEMENT_TRIGGERS } from "./management.ts";
import { QUOTE_TRIGGERS } from "./quote-lines.ts";
import { REGULAR_TRIGGERS } from "./regular-lines.ts";

export const CHAT_BOT_TRIGGERS: readonly string[] = [
  ...MANAGEMENT_TRIGGERS,
  ...QUOTE_TRIGGERS,
  ...REGULAR_TRIGGERS,
  PERMIT_TRIGGER,
];
