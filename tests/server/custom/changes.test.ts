import { describe, expect, test } from "bun:test";
import {
  type ChannelCommands,
  type CustomCommand,
  editedCommand,
  MAX_COMMANDS,
  planChange,
  REPLIES,
} from "../../../server/custom/changes.ts";
import { parseManagementLine } from "../../../server/custom/management.ts";

const discord: CustomCommand = {
  name: "discord",
  response: "Join us",
  level: "everyone",
  cooldownSeconds: 30,
  aliasOf: null,
  count: 7,
};
const empty: ChannelCommands = {
  existing: null,
  total: 0,
  builtInsOn: new Set(["followage", "so", "shoutout"]),
};

/** What one chat line does, as the chatter reads it. */
function run(line: string, channel: ChannelCommands = empty) {
  const parsed = parseManagementLine(line);
  if (!parsed?.ok || parsed.operation.kind === "list") throw new Error(`not a change: ${line}`);
  return planChange(parsed.operation, channel);
}

describe("what a management line changes", () => {
  test("add saves the command with Nightbot's defaults and says so", () => {
    expect(run("!commands add !Discord Join us")).toEqual({
      kind: "save",
      command: { ...discord, count: 0 },
      reply: 'The command "!discord" has been added successfully.',
    });
    expect(run("!addcom !x -ul=vip -cd=5 -c=3 hi")).toMatchObject({
      kind: "save",
      command: { level: "twitch_vip", cooldownSeconds: 5, count: 3 },
    });
  });

  test("add refuses a name that exists, a built-in that is on, the management words and a full channel", () => {
    expect(run("!addcom !discord hi", { ...empty, existing: discord })).toEqual({
      kind: "refuse",
      reply: 'The command "!discord" already exists; change it with !commands edit.',
    });
    expect(run("!addcom !so hi")).toEqual({
      kind: "refuse",
      reply: "!so is one of cuebot's own commands; turn it off in the dashboard to use the name.",
    });
    expect(run("!addcom !so hi", { ...empty, builtInsOn: new Set() }).kind).toBe("save");
    expect(run("!addcom !commands hi")).toEqual({ kind: "refuse", reply: REPLIES.reserved("commands") });
    expect(run("!addcom !delcom hi").kind).toBe("refuse");
    expect(run("!addcom !x hi", { ...empty, total: MAX_COMMANDS })).toEqual({
      kind: "refuse",
      reply: "This channel has 500 custom commands, the most it can keep; delete one first.",
    });
    expect(run("!addcom !x hi", { ...empty, total: MAX_COMMANDS - 1 }).kind).toBe("save");
    expect(run("!addcom !x -a=!x")).toEqual({ kind: "refuse", reply: "!x cannot run itself (-a=)." });
  });

  test("edit keeps every option it does not name", () => {
    const withDiscord = {
      ...empty,
      existing: { ...discord, level: "subscriber" as const, aliasOf: "other" },
    };
    expect(run("!commands edit !discord -cd=60", withDiscord)).toEqual({
      kind: "save",
      command: { ...withDiscord.existing, cooldownSeconds: 60 },
      reply: 'The command "!discord" has been edited successfully.',
    });
    expect(run("!commands edit !discord New text", withDiscord)).toMatchObject({
      command: { ...withDiscord.existing, response: "New text" },
    });
    expect(run("!commands edit !discord -c=0", withDiscord)).toMatchObject({
      command: { count: 0, response: "Join us" },
    });
    expect(editedCommand(discord, { options: { level: "moderator" }, response: null })).toEqual({
      ...discord,
      level: "moderator",
    });
  });

  test("edit and delete of a missing command change nothing", () => {
    expect(run("!commands edit !nope hi")).toEqual({
      kind: "refuse",
      reply: 'The command "!nope" does not exist.',
    });
    expect(run("!delcom !nope")).toEqual({ kind: "refuse", reply: 'The command "!nope" does not exist.' });
  });

  test("delete removes the command and says so", () => {
    expect(run("!commands delete !Discord", { ...empty, existing: discord })).toEqual({
      kind: "delete",
      name: "discord",
      reply: 'The command "!discord" has been deleted successfully.',
    });
  });

  test("every reply is one short line", () => {
    const replies = [
      REPLIES.added("a".repeat(32)),
      REPLIES.builtIn("a".repeat(32)),
      REPLIES.exists("a".repeat(32)),
      REPLIES.full(),
      REPLIES.list(),
    ];
    for (const reply of replies) {
      expect(reply).not.toContain("\n");
      expect(reply.length).toBeLessThan(200);
    }
  });
});
