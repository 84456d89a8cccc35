import { describe, expect, test } from "bun:test";
import type { NewCustomCommand } from "../../../db/custom-commands.ts";
import {
  type ChannelCommands,
  DEFAULT_COOLDOWN_SECONDS,
  MAX_COMMANDS,
  newCommand,
  planChange,
  REPLIES,
} from "../../../server/custom/changes.ts";
import { parseManagementLine } from "../../../server/custom/management.ts";

const empty: ChannelCommands = {
  exists: false,
  total: 0,
  builtInsOn: new Set(["followage", "so", "shoutout"]),
  actionCommands: new Set(),
};
const withIt: ChannelCommands = { ...empty, exists: true, total: 1 };

/** What one chat line does, as the chatter reads it. */
function run(line: string, channel: ChannelCommands = empty) {
  const parsed = parseManagementLine(line);
  if (!parsed?.ok || parsed.operation.kind === "list") throw new Error(`not a change: ${line}`);
  return planChange(parsed.operation, channel);
}

describe("what a management line changes", () => {
  test("add gives every column, Nightbot's defaults where the line named none, and says so", () => {
    expect(run("!commands add !Discord Join us")).toEqual({
      kind: "add",
      command: {
        name: "discord",
        response: "Join us",
        userLevel: "everyone",
        cooldownSeconds: DEFAULT_COOLDOWN_SECONDS,
        aliasTarget: null,
        count: 0,
      },
      reply: 'The command "!discord" has been added successfully.',
    });
    expect(run("!addcom !x -ul=vip -cd=5 -c=3 -a=!so hi")).toMatchObject({
      kind: "add",
      command: { userLevel: "twitch_vip", cooldownSeconds: 5, count: 3, aliasTarget: "so", response: "hi" },
    });
    // What the store takes.
    const stored: NewCustomCommand = newCommand("x", {}, "hi");
    expect(stored.cooldownSeconds).toBe(30);
  });

  test("an alias added without text passes the caller's words on", () => {
    expect(run("!commands add !so2 -a=!so")).toMatchObject({
      kind: "add",
      command: { name: "so2", aliasTarget: "so", response: "$(query)" },
    });
  });

  test("add refuses a name that exists, a built-in that is on, the management words and a full channel", () => {
    expect(run("!addcom !discord hi", withIt)).toEqual({
      kind: "refuse",
      reply: 'The command "!discord" already exists; change it with !commands edit.',
    });
    expect(run("!addcom !so hi")).toEqual({
      kind: "refuse",
      reply: 'The command "!so" is one of cuebot\'s own; turn it off in the dashboard to use the name.',
    });
    expect(run("!addcom !so hi", { ...empty, builtInsOn: new Set() }).kind).toBe("add");
    // An action's command trigger is refused as a built-in's is.
    expect(run("!addcom !BRB hi", { ...empty, actionCommands: new Set(["brb"]) })).toEqual({
      kind: "refuse",
      reply:
        "The command \"!brb\" starts one of this channel's actions; change that action's trigger in the dashboard to use the name.",
    });
    expect(run("!addcom !commands hi")).toEqual({ kind: "refuse", reply: REPLIES.reserved("commands") });
    expect(run("!addcom !delcom hi").kind).toBe("refuse");
    for (const name of ["quote", "addquote", "delquote", "regulars"])
      expect(run(`!addcom !${name} hi`)).toEqual({ kind: "refuse", reply: REPLIES.reserved(name) });
    expect(run("!addcom !x hi", { ...empty, total: MAX_COMMANDS })).toEqual({
      kind: "refuse",
      reply: "This channel has 500 custom commands, the most it can keep; delete one first.",
    });
    expect(run("!addcom !x hi", { ...empty, total: MAX_COMMANDS - 1 }).kind).toBe("add");
    expect(run("!addcom !x -a=!x")).toEqual({
      kind: "refuse",
      reply: 'The command "!x" cannot run itself (-a=).',
    });
    expect(run("!editcom !x -a=!X", withIt)).toEqual({
      kind: "refuse",
      reply: 'The command "!x" cannot run itself (-a=).',
    });
  });

  test("an edit names only what it changes; the store keeps the rest", () => {
    expect(run("!commands edit !discord -cd=60", withIt)).toEqual({
      kind: "edit",
      name: "discord",
      changes: { cooldownSeconds: 60 },
      reply: 'The command "!discord" has been edited successfully.',
    });
    expect(run("!commands edit !discord New text", withIt)).toMatchObject({
      changes: { response: "New text" },
    });
    expect(run("!commands edit !discord -ul=mod -c=0 -a=!so Go", withIt)).toMatchObject({
      changes: { userLevel: "moderator", count: 0, aliasTarget: "so", response: "Go" },
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
    expect(run("!commands delete !Discord", withIt)).toEqual({
      kind: "delete",
      name: "discord",
      reply: 'The command "!discord" has been deleted successfully.',
    });
  });

  test("every reply is one short line", () => {
    const long = "a".repeat(32);
    const replies = [
      REPLIES.added(long),
      REPLIES.builtIn(long),
      REPLIES.exists(long),
      REPLIES.full(),
      REPLIES.list(),
    ];
    for (const reply of replies) {
      expect(reply).not.toContain("\n");
      expect(reply.length).toBeLessThan(200);
    }
  });
});
