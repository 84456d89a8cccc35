import { ApiError } from "../core/errors.ts";

/**
 * Nightbot's command table as a browser copies it (issue 36): the streamer opens their public
 * commands page (`https://nightbot.tv/t/<login>/commands`) or the control panel's
 * (`https://nightbot.tv/commands/custom`), selects the table (or the whole page), copies and pastes.
 * Browsers copy a table as one line per row, its cells separated by tabs. This reads those rows into
 * the shape of Nightbot's `GET /1/commands` (`{commands: [{name, message, userLevel, coolDown}]}`),
 * which the import then plans as it plans the API's list (import.ts). Pure: no I/O.
 *
 * Columns are found by the table's header row (Command, Message, Userlevel, Cooldown, in any order,
 * any case; others such as Actions are left out), or, with no header, taken in that order. Lines
 * without a tab (the page's menus and footer, a page number) are not rows and are passed over, and a
 * header repeated (several pages pasted one after another) is not a command. User levels are read
 * as Nightbot's page shows them ("Twitch VIP", "Moderator") or as its API spells them ("twitch_vip");
 * cooldowns as seconds ("30", "30s", "5 minutes", "1m 30s"). A table gives no count and no alias:
 * the API's list keeps them.
 */

/** One command as Nightbot's API shapes it, read from one row. */
export interface TableCommand {
  name: string;
  message: string;
  userLevel?: string;
  coolDown?: number;
}

type Column = "name" | "message" | "userLevel" | "coolDown";

/** Header words (lower case, spaces and `_` dropped) naming each column. */
const HEADER_WORDS: Readonly<Record<string, Column>> = {
  command: "name",
  commands: "name",
  name: "name",
  message: "message",
  response: "message",
  reply: "message",
  userlevel: "userLevel",
  level: "userLevel",
  cooldown: "coolDown",
};

/** Without a header: Nightbot's own order. */
const DEFAULT_COLUMNS: readonly (Column | null)[] = ["name", "message", "userLevel", "coolDown"];

/** Nightbot's user levels as its pages write them (lower case, spaces and `_` dropped) → the API's word. */
const LEVEL_WORDS: Readonly<Record<string, string>> = {
  everyone: "everyone",
  subscriber: "subscriber",
  subscribers: "subscriber",
  regular: "regular",
  regulars: "regular",
  twitchvip: "twitch_vip",
  vip: "twitch_vip",
  vips: "twitch_vip",
  moderator: "moderator",
  moderators: "moderator",
  mod: "moderator",
  owner: "owner",
  admin: "admin",
  soopvip: "soop_vip",
};

const UNIT_SECONDS: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hour: 3600,
  hours: 3600,
};

/** Rows read at most: past the import's own limit, the import refuses the list whole anyway. */
const MAX_ROWS = 10_000;

/** A header word or a level as written: lower case, without spaces, `_`, `-` or invisible characters. */
function wordOf(cell: string): string {
  return cell
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s_\-\u200b-\u200f\u2060\ufeff]/g, "");
}

/** The columns a header row names, or null when the line is not one (it names no command and message). */
function headerColumns(cells: readonly string[]): (Column | null)[] | null {
  const columns = cells.map((cell) => HEADER_WORDS[wordOf(cell)] ?? null);
  return columns.includes("name") && columns.includes("message") ? columns : null;
}

/** The cooldown a cell gives, in seconds, or null when it is not one ("abc", "-5"). Empty: none given. */
export function cooldownSeconds(cell: string): number | null | undefined {
  const text = cell.trim().toLowerCase();
  if (text === "" || text === "-" || text === "none") return undefined;
  if (/^\d{1,7}$/.test(text)) return Number(text);
  let total = 0;
  let rest = text;
  while (rest !== "") {
    const part = /^(\d{1,7})\s*([a-z]+)\s*,?\s*/.exec(rest);
    const unit = part ? UNIT_SECONDS[part[2]!] : undefined;
    if (!part || unit === undefined) return null;
    total += Number(part[1]) * unit;
    rest = rest.slice(part[0].length);
  }
  return total;
}

/** The API's word for a level cell; an unknown one is kept as written, so the import refuses that command only. */
function levelOf(cell: string): string | undefined {
  const word = wordOf(cell);
  if (word === "") return undefined;
  return LEVEL_WORDS[word] ?? cell.trim();
}

function badTable(message: string): ApiError {
  return new ApiError(400, "bad_request", message);
}

/** A shown cell: at most 40 characters, so an error never repeats a whole pasted page. */
function shortCell(cell: string): string {
  const points = Array.from(cell.trim());
  return points.length > 40 ? `${points.slice(0, 40).join("")}…` : points.join("");
}

/** One row's command, or a 400 naming the line when a cell cannot be what its column holds. */
function rowCommand(
  cells: readonly string[],
  columns: readonly (Column | null)[],
  line: number,
): TableCommand {
  const cell = (column: Column) => {
    const index = columns.indexOf(column);
    return index >= 0 ? (cells[index] ?? "") : "";
  };
  const command: TableCommand = { name: cell("name").trim(), message: cell("message").trim() };
  const level = levelOf(cell("userLevel"));
  if (level !== undefined) command.userLevel = level;
  const cooldown = cooldownSeconds(cell("coolDown"));
  if (cooldown === null) {
    throw badTable(
      `Line ${line}: the cooldown "${shortCell(cell("coolDown"))}" is not a number of seconds (like 30 or 30s); nothing was imported.`,
    );
  }
  if (cooldown !== undefined) command.coolDown = cooldown;
  return command;
}

/**
 * The commands of a pasted table, in Nightbot's API shape; a 400 that says what to paste when the
 * text holds no table, or names the line whose cell cannot be read.
 */
export function nightbotTableCommands(text: string): { commands: TableCommand[] } {
  const lines = text.split(/\r\n|\r|\n/);
  let columns: readonly (Column | null)[] | null = null;
  const commands: TableCommand[] = [];
  const orphans: { cells: string[]; line: number }[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (!line.includes("\t")) continue;
    const cells = line.split("\t");
    const header = headerColumns(cells);
    if (header) {
      // The first header names the columns; one repeated (another page pasted) is not a row.
      columns ??= header;
      continue;
    }
    if (cells.every((cell) => cell.trim() === "")) continue;
    if (commands.length + orphans.length >= MAX_ROWS) {
      throw badTable(`The table has more than ${MAX_ROWS} rows; paste at most 1,000 commands at once.`);
    }
    // Rows above the header (a page's own tabbed text) are kept aside until a header is seen.
    if (columns) commands.push(rowCommand(cells, columns, index + 1));
    else orphans.push({ cells, line: index + 1 });
  }
  if (!columns) {
    if (orphans.length === 0) throw badTable(NO_TABLE);
    return { commands: orphans.map((row) => rowCommand(row.cells, DEFAULT_COLUMNS, row.line)) };
  }
  if (commands.length === 0) throw badTable("The table has a header but no command rows; copy the rows too.");
  return { commands };
}

const NO_TABLE =
  "This is neither JSON nor a table copied from Nightbot: no line has columns. Open your Nightbot commands page, select the table, copy it and paste it here.";
