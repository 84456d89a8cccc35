// The variables a response may use (server/custom/variables.ts fills them), as a short list under the
// response field. `$(query)` and `$(1)`…`$(9)` put a chatter's words in the reply: the streamer's
// choice, said so here.
import { h } from "../../lib/dom.ts";

const VARIABLES: [string, string][] = [
  ["$(user)", "the viewer who typed the command"],
  ["$(touser)", "the first word if it is a Twitch name, else the viewer"],
  ["$(query)", "everything typed after the command (the viewer's own words, as typed)"],
  ["$(1)…$(9)", "one word typed after the command"],
  ["$(count)", "how often the command answered, this time included (a counter)"],
  ["$(channel)", "your channel's name"],
  ["$(uptime)", "how long the stream has been live"],
  ["$(game)", "the category you stream"],
  ["$(followage)", "how long the viewer has followed you"],
  ["$(time Europe/Berlin)", "the time in that time zone"],
  ["$(random 1-100)", "a whole number in that range"],
  ["$(pick a|b|c)", "one of the choices, at random"],
  ["$(rank)", "your VALORANT player's rank, as !rank answers (also $(lastmatch), $(today), $(stats))"],
];

/** A collapsible list of the variables, closed at first so the form stays short. */
export function variablesHelp(): HTMLElement {
  return h(
    "details",
    { class: "cc-variables" },
    h("summary", {}, "Variables you can use"),
    h(
      "dl",
      {},
      VARIABLES.flatMap(([name, what]) => [h("dt", {}, h("code", {}, name)), h("dd", {}, what)]),
    ),
    h("p", { class: "hint" }, "Anything else in $( ) stays as typed. No variable fetches a web address."),
  );
}
