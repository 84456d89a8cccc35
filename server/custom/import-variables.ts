/**
 * Rewrites the response of an imported Nightbot or StreamElements command into cuebot's variables
 * (Nightbot's `$(…)` syntax), or says in one line why it cannot be (issue 24, import). Pure.
 *
 * Only variables that mean the same thing here are carried over; everything else is refused rather
 * than left as typed, because a streamer would otherwise find `$(eval …)` printed in chat. Variables
 * that fetch a URL are refused by name wherever they appear, nested or not: cuebot never makes the
 * server fetch an address a command names (chat-bot-commands.md §2.3).
 */

export type ImportDialect = "nightbot" | "streamelements";

export type Translation = { ok: true; text: string } | { ok: false; why: string };

/** Variables cuebot and Nightbot both spell `$(name)` with no argument. */
const SAME_NO_ARGUMENT = new Set(["user", "touser", "query", "count", "channel"]);

/** StreamElements' argument-free variables (`${name}` or `$(name)`) and cuebot's spelling of each. */
const STREAMELEMENTS_NO_ARGUMENT = new Map([
  ["user", "$(user)"],
  ["sender", "$(user)"],
  ["touser", "$(touser)"],
  ["count", "$(count)"],
  ["channel", "$(channel)"],
  ["uptime", "$(uptime)"],
  ["game", "$(game)"],
  ["1:", "$(query)"],
]);

const FETCHES_A_URL = /\$[({]\s*(urlfetch|customapi)\b/i;
const ARGUMENT_NUMBER = /^[1-9]$/;
const TIME_ZONE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;
const INTEGER_RANGE = /^(-?\d{1,9})-(-?\d{1,9})$/;
/**
 * A variable name safe to repeat in a reason, per dialect (StreamElements has dotted names such as
 * `random.pick`); anything else, a link or a sentence, is described without echoing it.
 */
const SHOWABLE_NAME: Record<ImportDialect, RegExp> = {
  nightbot: /^[a-z0-9_]{1,24}$/,
  streamelements: /^[a-z0-9_]{1,24}(\.[a-z0-9_]{1,24})?:?$/,
};

/** Nightbot's way to print the uptime or the category, which cuebot has as variables of its own. */
const NIGHTBOT_TWITCH_FIELDS = new Map([
  ['twitch $(channel) "{{uptimeLength}}"', "$(uptime)"],
  ['twitch $(channel) "{{game}}"', "$(game)"],
]);

type Piece = { variable: false; text: string } | { variable: true; inner: string };

/** The response in cuebot's variables, or why it cannot be expressed. */
export function translateResponse(message: string, dialect: ImportDialect): Translation {
  const fetcher = FETCHES_A_URL.exec(message);
  if (fetcher) {
    const name = fetcher[1]!.toLowerCase();
    return { ok: false, why: `uses ${spell(name, dialect)}, which fetches a URL; cuebot never fetches one` };
  }
  let text = "";
  for (const piece of splitVariables(message, dialect === "streamelements")) {
    if (!piece.variable) {
      text += piece.text;
      continue;
    }
    const translated =
      dialect === "nightbot" ? translateNightbot(piece.inner) : translateStreamElements(piece.inner);
    if (!translated.ok) return translated;
    text += translated.text;
  }
  return { ok: true, text };
}

/**
 * Cuts a message into text and top-level variables. `$(` (and for StreamElements `${`) opens one; its
 * end is the bracket that balances it, so nested variables stay inside. An opening that never closes
 * is text, as a bot would print it.
 */
function splitVariables(message: string, braces: boolean): Piece[] {
  const pieces: Piece[] = [];
  let textStart = 0;
  let index = 0;
  while (index < message.length - 1) {
    const open = message[index + 1];
    if (message[index] !== "$" || !(open === "(" || (braces && open === "{"))) {
      index++;
      continue;
    }
    const end = closingIndex(message, index + 1, open, open === "(" ? ")" : "}");
    if (end < 0) break;
    if (index > textStart) pieces.push({ variable: false, text: message.slice(textStart, index) });
    pieces.push({ variable: true, inner: message.slice(index + 2, end).trim() });
    index = end + 1;
    textStart = index;
  }
  if (textStart < message.length) pieces.push({ variable: false, text: message.slice(textStart) });
  return pieces;
}

function closingIndex(message: string, openAt: number, open: string, close: string): number {
  let depth = 0;
  for (let index = openAt; index < message.length; index++) {
    if (message[index] === open) depth++;
    else if (message[index] === close && --depth === 0) return index;
  }
  return -1;
}

function translateNightbot(inner: string): Translation {
  const twitchField = NIGHTBOT_TWITCH_FIELDS.get(inner.replace(/\s+/g, " "));
  if (twitchField) return { ok: true, text: twitchField };
  const { name, argument } = splitInner(inner);
  if (argument === "" && (SAME_NO_ARGUMENT.has(name) || ARGUMENT_NUMBER.test(name))) {
    return { ok: true, text: `$(${name})` };
  }
  if (name === "time" && TIME_ZONE.test(argument)) return { ok: true, text: `$(time ${argument})` };
  if (name === "time") return refuse("$(time) with a format or without a time zone");
  return unknown(name, "nightbot");
}

function translateStreamElements(inner: string): Translation {
  const { name, argument } = splitInner(inner);
  const same = STREAMELEMENTS_NO_ARGUMENT.get(name);
  if (same && argument === "") return { ok: true, text: same };
  if (ARGUMENT_NUMBER.test(name) && argument === "") return { ok: true, text: `$(${name})` };
  if (name === "count" || name === "getcount") return refuse(`a named counter (\${count name})`);
  if (name === "random") return streamElementsRandom(argument);
  if (name === "random.pick") return streamElementsPick(argument);
  if (name === "time.timezone" && TIME_ZONE.test(argument)) return { ok: true, text: `$(time ${argument})` };
  return unknown(name, "streamelements");
}

/** `${random 1-100}` → `$(random 1-100)`; StreamElements' other random forms have no equivalent. */
function streamElementsRandom(argument: string): Translation {
  const range = INTEGER_RANGE.exec(argument);
  if (range && Number(range[1]) <= Number(range[2])) return { ok: true, text: `$(random ${argument})` };
  return refuse(`\${random} with something other than a number range`);
}

/** `${random.pick 'a' 'b c'}` → `$(pick a|b c)`, when no choice holds `|`, brackets or a variable. */
function streamElementsPick(argument: string): Translation {
  const choices: string[] = [];
  for (const match of argument.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) {
    choices.push((match[1] ?? match[2] ?? match[3] ?? "").trim());
  }
  const plain = choices.length > 0 && choices.every((choice) => choice !== "" && !/[|(){}$]/.test(choice));
  if (plain) return { ok: true, text: `$(pick ${choices.join("|")})` };
  return refuse(`\${random.pick} with choices cuebot cannot list as $(pick a|b|c)`);
}

function splitInner(inner: string): { name: string; argument: string } {
  const space = inner.search(/\s/);
  if (space < 0) return { name: inner.toLowerCase(), argument: "" };
  return { name: inner.slice(0, space).toLowerCase(), argument: inner.slice(space).trim() };
}

function unknown(name: string, dialect: ImportDialect): Translation {
  if (!SHOWABLE_NAME[dialect].test(name)) return refuse("a variable cuebot has no equivalent for");
  return refuse(`${spell(name, dialect)}, which cuebot has no equivalent for`);
}

function refuse(what: string): Translation {
  return { ok: false, why: `uses ${what}` };
}

function spell(name: string, dialect: ImportDialect): string {
  return dialect === "nightbot" ? `$(${name})` : `\${${name}}`;
}
