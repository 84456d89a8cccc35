// biome-ignore-all lint/suspicious/noTemplateCurlyInString: StreamElements' ${…} variables are literal text here.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ApiError } from "../../../server/core/errors.ts";
import {
  type ImportFormat,
  type ImportPlan,
  MAX_IMPORT_COMMANDS,
  planImport,
} from "../../../server/custom/import.ts";
import { FOLDING_LOOKALIKES, TROLL_TEXTS } from "../../helpers/troll-texts.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures/chat-bots");

function fixture(file: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, file), "utf8"));
}

function plan(
  body: unknown,
  options: {
    format?: ImportFormat | "detect";
    existing?: string[];
    builtins?: string[];
    actions?: string[];
  } = {},
): ImportPlan {
  return planImport({
    body,
    format: options.format ?? "detect",
    existingNames: options.existing ?? [],
    builtinNamesOn: options.builtins ?? [],
    actionCommands: options.actions ?? [],
  });
}

/** A Nightbot list of the given commands, each with Nightbot's defaults unless it says otherwise. */
function nightbot(...commands: unknown[]): unknown {
  return { _total: commands.length, status: 200, commands };
}

/** The 400 message `planImport` gives for `body`. */
function refusal(body: unknown, format: ImportFormat | "detect" = "detect"): string {
  try {
    plan(body, { format });
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).code).toBe("bad_request");
    return (error as ApiError).message;
  }
  throw new Error("the body was accepted");
}

function whyOf(notes: { name: string; why: string }[], name: string): string | undefined {
  return notes.find((note) => note.name === name)?.why;
}

describe("a Nightbot list as GET /1/commands returns it", () => {
  const result = plan(fixture("nightbot-commands.json"), {
    existing: ["!Hype"],
    builtins: ["followage", "so", "shoutout", "magic8", "clip"],
  });

  test("is recognised, and every command lands in exactly one list", () => {
    expect(result.format).toBe("nightbot");
    const names = [...result.add.map((c) => c.name), ...result.conflicts, ...result.unsupported];
    expect(names).toHaveLength(14);
  });

  test("the commands cuebot can express are added in its model, in the file's order", () => {
    expect(result.add.map((command) => command.name)).toEqual([
      "discord",
      "lurk",
      "hug",
      "deaths",
      "uptime",
      "time",
      "socials",
      "vipsonly",
      "dc",
      "settings",
    ]);
    expect(result.add[0]).toEqual({
      name: "discord",
      response: "Join the community Discord: https://discord.gg/example",
      level: "everyone",
      cooldownSeconds: 30,
      userCooldownSeconds: 0,
      aliasOf: null,
      count: 0,
    });
    const byName = new Map(result.add.map((command) => [command.name, command]));
    expect(byName.get("hug")?.response).toBe("$(user) gives $(touser) a big hug <3");
    expect(byName.get("deaths")).toMatchObject({
      response: "The streamer has died $(count) times so far.",
      count: 41,
    });
    expect(byName.get("uptime")?.response).toBe("$(channel) has been live for $(uptime)");
    expect(byName.get("time")?.response).toBe("It is $(time Europe/Berlin) for the streamer.");
    expect(byName.get("socials")).toMatchObject({ level: "regular", cooldownSeconds: 60 });
    expect(byName.get("vipsonly")).toMatchObject({ level: "twitch_vip", cooldownSeconds: 300 });
    expect(byName.get("dc")).toMatchObject({ aliasOf: "discord", response: "" });
    expect(byName.get("settings")?.level).toBe("owner");
  });

  test("a cooldown above 300 s is clamped and the change is listed", () => {
    expect(result.adjusted).toEqual([{ name: "vipsonly", why: "Its cooldown of 600 s becomes 300 s." }]);
  });

  test("built-in commands that are on and existing custom commands are conflicts", () => {
    expect(result.conflicts).toEqual([
      { name: "followage", why: "A built-in command of this name is on; turn it off to import this one." },
      { name: "so", why: "A built-in command of this name is on; turn it off to import this one." },
      { name: "hype", why: "A custom command of this name exists already; the import does not replace it." },
    ]);
  });

  test("a command one of the channel's actions answers is a conflict", () => {
    const body = nightbot({ name: "!brb", message: "back soon" }, { name: "!lurk", message: "lurking" });
    const planned = plan(body, { actions: ["brb"] });
    expect(planned.conflicts).toEqual([
      {
        name: "brb",
        why: "One of this channel's actions answers this command; change that action's trigger to import this one.",
      },
    ]);
    expect(planned.add.map((c) => c.name)).toEqual(["lurk"]);
  });

  test("$(eval) cannot be expressed", () => {
    expect(result.unsupported).toEqual([
      { name: "8ball", why: "It uses $(eval), which cuebot has no equivalent for." },
    ]);
  });

  test("with the built-in off, $(urlfetch) is refused because it fetches a URL", () => {
    const again = plan(fixture("nightbot-commands.json"));
    expect(whyOf(again.unsupported, "followage")).toBe(
      "It uses $(urlfetch), which fetches a URL; cuebot never fetches one.",
    );
    expect(again.add.map((command) => command.name)).toContain("so");
  });
});

describe("a StreamElements list as GET /bot/commands/{channel} returns it", () => {
  const result = plan(fixture("streamelements-commands.json"));
  const byName = new Map(result.add.map((command) => [command.name, command]));

  test("is recognised, and its variables become cuebot's", () => {
    expect(result.format).toBe("streamelements");
    expect(byName.get("lurk")?.response).toBe("$(user) is now lurking. Enjoy the stream!");
    expect(byName.get("hug")?.response).toBe("$(user) gives $(touser) a big hug <3");
    expect(byName.get("deaths")).toMatchObject({
      response: "The streamer has died $(count) times so far.",
      level: "moderator",
    });
    expect(byName.get("dice")?.response).toBe("$(user) rolled a $(random 1-6)");
    expect(byName.get("coin")?.response).toBe("The coin says $(pick heads|tails)");
    expect(byName.get("uptime")?.response).toBe("$(channel) has been live for $(uptime) playing $(game)");
    expect(byName.get("smonly")).toMatchObject({
      response: "Super moderators only: $(query)",
      level: "owner",
    });
    expect(byName.get("time")).toMatchObject({
      response: "It is $(time Europe/Berlin) for the streamer.",
      cooldownSeconds: 0,
    });
    expect(byName.get("vip")?.level).toBe("twitch_vip");
    expect(result.conflicts).toEqual([]);
  });

  test("what cannot be expressed says why, one line each", () => {
    expect(result.unsupported).toEqual([
      { name: "followage", why: "It uses ${customapi}, which fetches a URL; cuebot never fetches one." },
      { name: "oldcmd", why: "It is turned off in StreamElements." },
      { name: "quote", why: "It uses ${quote}, which cuebot has no equivalent for." },
    ]);
  });

  test("what is dropped or changed to fit is listed beside the command", () => {
    expect(whyOf(result.adjusted, "discord")).toBe("Its aliases (1) are not carried over.");
    // Its per-user cooldown of 15 s is carried over as it is, beside the global 5 s.
    expect(byName.get("discord")).toMatchObject({ cooldownSeconds: 5, userCooldownSeconds: 15 });
    expect(whyOf(result.adjusted, "dice")).toBe("Its cooldown of 3 s becomes 5 s.");
    expect(whyOf(result.adjusted, "smonly")).toBe("Access level 1000 (super moderator) becomes owner.");
    expect(whyOf(result.adjusted, "test")).toBe("It no longer answers to keywords or a regex.");
    expect(whyOf(result.adjusted, "shop")).toBe(
      "It cost 100 points and is free here; it was whispered and answers in chat here.",
    );
    expect(whyOf(result.adjusted, "deaths")).toBe("Its count starts again at 0.");
    expect(whyOf(result.adjusted, "lurk")).toBeUndefined();
  });
});

describe("names", () => {
  test("are stored in lower case without !, and a second spelling of one name is a conflict", () => {
    const result = plan(
      nightbot(
        { name: "!Discord", message: "a" },
        { name: "discord", message: "b" },
        { name: "LURK", message: "c" },
      ),
    );
    expect(result.add.map((command) => [command.name, command.response])).toEqual([
      ["discord", "a"],
      ["lurk", "c"],
    ]);
    expect(result.conflicts).toEqual([
      { name: "discord", why: "The file holds this name more than once; only the first is imported." },
    ]);
  });

  test("existing and built-in names match whatever their case or !", () => {
    const result = plan(nightbot({ name: "!Rank", message: "a" }, { name: "!lurk", message: "b" }), {
      existing: ["LURK"],
      builtins: ["!rank"],
    });
    expect(result.add).toEqual([]);
    expect(result.conflicts.map((note) => note.name)).toEqual(["rank", "lurk"]);
  });

  test("odd Unicode, links and sentences are refused, and shown without invisible or reversing characters", () => {
    const odd = [
      "!dіscord",
      "!\u212Aick",
      "!café",
      "!ｄｉｓｃｏｒｄ",
      "!🎉",
      "\u202edrocsid!",
      "!disc\u200bord",
      "",
      "!",
      ...TROLL_TEXTS,
      ...FOLDING_LOOKALIKES.map((name) => `!${name}`),
    ];
    const result = plan(nightbot(...odd.map((name) => ({ name, message: "hi" }))));
    expect(result.add).toEqual([]);
    expect(result.unsupported).toHaveLength(odd.length);
    for (const note of result.unsupported) {
      expect(note.why).toBe("A command name is ! and 1 to 32 letters, digits or underscores, like !discord.");
      expect(note.name).not.toMatch(/[\p{Cc}\u200b\u202e\u2800]/u);
    }
    expect(result.unsupported[7]?.name).toBe("(no name)");
  });

  test("names that fold into ASCII are refused from StreamElements too, and as a Nightbot alias's target", () => {
    const fromSe = plan(
      FOLDING_LOOKALIKES.map((command) => ({ command, reply: "hi" })),
      { format: "streamelements" },
    );
    expect(fromSe.add).toEqual([]);
    expect(fromSe.unsupported).toHaveLength(FOLDING_LOOKALIKES.length);
    const aliases = plan(
      nightbot(
        { name: "!kick", message: "hi" },
        ...FOLDING_LOOKALIKES.map((target, i) => ({ name: `!alias${i}`, alias: `!${target}`, message: "" })),
      ),
    );
    expect(aliases.add.map((command) => command.name)).toEqual(["kick"]);
    expect(aliases.unsupported).toHaveLength(FOLDING_LOOKALIKES.length);
  });

  test("a name of 100,000 characters is refused in one short line", () => {
    const result = plan(nightbot({ name: `!${"a".repeat(100_000)}`, message: "hi" }));
    expect(result.unsupported).toEqual([
      { name: `!${"a".repeat(39)}…`, why: "A command name is at most 32 characters after the !." },
    ]);
  });

  test("__proto__, constructor and toString are ordinary names and pollute nothing", () => {
    const body = JSON.parse(
      '{"commands": [{"name": "__proto__", "message": "a"}, {"name": "constructor", "message": "b"}, {"name": "toString", "message": "c"}]}',
    );
    const result = plan(body, { existing: ["hasownproperty"] });
    expect(result.add.map((command) => command.name)).toEqual(["__proto__", "constructor", "tostring"]);
    const again = plan(body, { existing: ["__proto__", "constructor"] });
    expect(again.conflicts.map((note) => note.name)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });

  test("fields are read from the object itself, never through __proto__", () => {
    expect(refusal(JSON.parse('{"__proto__": {"commands": []}}'))).toBe(
      "The file is neither Nightbot's {\"commands\": […]} nor StreamElements' list […]; it is an object.",
    );
    expect(refusal(JSON.parse('{"commands": [{"__proto__": {"name": "x", "message": "y"}}]}'))).toBe(
      "commands[0].name must be text, but it is missing.",
    );
    const inherited = nightbot(Object.create({ name: "!x", message: "y" }));
    expect(refusal(inherited)).toBe("commands[0].name must be text, but it is missing.");
  });
});

describe("user levels, cooldowns and counts", () => {
  test("Nightbot's levels map one to one; admin and SOOP VIP are rounded up with a note; others are refused", () => {
    const levels = [
      "everyone",
      "subscriber",
      "regular",
      "twitch_vip",
      "moderator",
      "owner",
      "admin",
      "soop_vip",
      "wizard",
      "Moderator",
    ];
    const result = plan(
      nightbot(...levels.map((userLevel, index) => ({ name: `c${index}`, message: "hi", userLevel }))),
    );
    expect(result.add.map((command) => command.level)).toEqual([
      "everyone",
      "subscriber",
      "regular",
      "twitch_vip",
      "moderator",
      "owner",
      "owner",
      "twitch_vip",
    ]);
    expect(result.adjusted).toEqual([
      { name: "c6", why: "Nightbot's admin level (its staff) becomes owner." },
      { name: "c7", why: "SOOP VIP becomes Twitch VIP." },
    ]);
    expect(result.unsupported).toEqual([
      { name: "c8", why: 'Its user level "wizard" is not one cuebot has.' },
      { name: "c9", why: 'Its user level "Moderator" is not one cuebot has.' },
    ]);
  });

  test("StreamElements' access levels round up, so nobody gains access", () => {
    const levels = [0, 100, 101, 250, 300, 400, 450, 500, 1000, 1500, 2000];
    const body = levels.map((accessLevel, index) => ({ command: `c${index}`, reply: "hi", accessLevel }));
    expect(plan(body).add.map((command) => command.level)).toEqual([
      "everyone",
      "everyone",
      "subscriber",
      "subscriber",
      "regular",
      "twitch_vip",
      "moderator",
      "moderator",
      "owner",
      "owner",
      "owner",
    ]);
  });

  test("a cooldown becomes 0 or 5–300 s, and each change is listed", () => {
    const cooldowns = [0, 2, 4.6, 5, 30, 300, 301, -3];
    const result = plan(
      nightbot(...cooldowns.map((coolDown, index) => ({ name: `c${index}`, message: "hi", coolDown }))),
    );
    expect(result.add.map((command) => command.cooldownSeconds)).toEqual([0, 5, 5, 5, 30, 300, 300, 0]);
    expect(result.adjusted.map((note) => note.why)).toEqual([
      "Its cooldown of 2 s becomes 5 s.",
      "Its cooldown of 4.6 s becomes 5 s.",
      "Its cooldown of 301 s becomes 300 s.",
      "Its cooldown of -3 s becomes 0 s.",
    ]);
  });

  test("StreamElements' per-user cooldown is kept, into 0 or 5–300 s like the global one; Nightbot has none", () => {
    const perUser = [0, 15, 2, 4.6, 300, 301, 3600, -3];
    const body = perUser.map((user, index) => ({
      command: `c${index}`,
      reply: "hi",
      cooldown: { user, global: 5 },
    }));
    const result = plan(body);
    expect(result.add.map((command) => [command.cooldownSeconds, command.userCooldownSeconds])).toEqual([
      [5, 0],
      [5, 15],
      [5, 5],
      [5, 5],
      [5, 300],
      [5, 300],
      [5, 300],
      [5, 0],
    ]);
    expect(result.adjusted).toEqual([
      { name: "c2", why: "Its per-user cooldown of 2 s becomes 5 s." },
      { name: "c3", why: "Its per-user cooldown of 4.6 s becomes 5 s." },
      { name: "c5", why: "Its per-user cooldown of 301 s becomes 300 s." },
      { name: "c6", why: "Its per-user cooldown of 3600 s becomes 300 s." },
      { name: "c7", why: "Its per-user cooldown of -3 s becomes 0 s." },
    ]);
    // A per-user cooldown of the wrong type is the body's error, naming its path.
    expect(() => plan([{ command: "x", reply: "hi", cooldown: { user: "15", global: 5 } }])).toThrow(
      "[0].cooldown.user",
    );
    const nightbotList = plan(nightbot({ name: "!x", message: "hi", coolDown: 60 }));
    expect(nightbotList.add[0]).toMatchObject({ cooldownSeconds: 60, userCooldownSeconds: 0 });
  });

  test("Nightbot's defaults fill what its list leaves out", () => {
    expect(plan(nightbot({ name: "!x", message: "hi" })).add).toEqual([
      {
        name: "x",
        response: "hi",
        level: "everyone",
        cooldownSeconds: 30,
        userCooldownSeconds: 0,
        aliasOf: null,
        count: 0,
      },
    ]);
  });

  test("a count is kept as Nightbot stores it (-1 after a reset), a fraction or a huge one is refused", () => {
    const result = plan(
      nightbot(
        { name: "a", message: "$(count)", count: -1 },
        { name: "b", message: "$(count)", count: 1.5 },
        { name: "c", message: "$(count)", count: 1e12 },
      ),
    );
    expect(result.add.map((command) => command.count)).toEqual([-1]);
    expect(result.unsupported.map((note) => note.why)).toEqual([
      "Its count is not a whole number up to 1,000,000,000.",
      "Its count is not a whole number up to 1,000,000,000.",
    ]);
  });

  test("an alias keeps its target as stored; an alias of itself or of a bad name is refused", () => {
    const result = plan(
      nightbot(
        { name: "!w", alias: "!Wins", message: "" },
        { name: "!loop", alias: "!loop", message: "x" },
        { name: "!bad", alias: "https://evil.example", message: "x" },
      ),
    );
    expect(result.add).toEqual([
      {
        name: "w",
        response: "",
        level: "everyone",
        cooldownSeconds: 30,
        userCooldownSeconds: 0,
        aliasOf: "wins",
        count: 0,
      },
    ]);
    expect(result.unsupported).toEqual([
      { name: "loop", why: "It is an alias of itself." },
      { name: "bad", why: "It is an alias of a command whose name cuebot cannot take." },
    ]);
  });
});

describe("responses", () => {
  function outcome(message: string, format: ImportFormat = "nightbot"): string {
    const body =
      format === "nightbot" ? nightbot({ name: "x", message }) : [{ command: "x", reply: message }];
    const result = plan(body);
    return result.add[0]?.response ?? `refused: ${result.unsupported[0]?.why}`;
  }

  test("a response is at most 500 characters, counted as characters, not code units", () => {
    expect(outcome("a".repeat(500))).toBe("a".repeat(500));
    expect(outcome("🎉".repeat(500))).toBe("🎉".repeat(500));
    expect(outcome("a".repeat(501))).toBe("refused: Its response is 501 characters; at most 500.");
    expect(outcome("x".repeat(1_000_000))).toBe("refused: Its response is 1000000 characters; at most 500.");
  });

  test("empty responses, control characters and line breaks", () => {
    expect(outcome("   ")).toBe("refused: Its response is empty.");
    expect(outcome("bell\u0007")).toBe("refused: Its response holds control characters.");
    expect(outcome("nul\u0000")).toBe("refused: Its response holds control characters.");
    const result = plan(nightbot({ name: "x", message: "line one\r\nline two" }));
    expect(result.add[0]?.response).toBe("line one line two");
    expect(result.adjusted).toEqual([{ name: "x", why: "Line breaks become spaces." }]);
  });
});

describe("malformed bodies are one clear error naming the path", () => {
  test("the wrong kind of file", () => {
    // Text is read as Nightbot's table copied from its page (import-table.test.ts).
    expect(refusal("text")).toStartWith("This is neither JSON nor a table copied from Nightbot");
    for (const body of [null, undefined, 42, true, {}]) {
      expect(refusal(body)).toStartWith("The file is neither Nightbot's");
    }
    expect(refusal([], "nightbot")).toBe(
      'This is a list, as StreamElements sends it; a Nightbot file is {"commands": […]}.',
    );
    expect(refusal({ commands: [] }, "streamelements")).toBe(
      'This is {"commands": […]}, as Nightbot sends it; a StreamElements file is a list […].',
    );
    expect(refusal(42, "nightbot")).toBe('A Nightbot file is {"commands": […]}, not a number.');
    expect(refusal("x", "nightbot")).toStartWith("This is neither JSON nor a table copied from Nightbot");
  });

  test("a wrong type anywhere", () => {
    expect(refusal({ commands: {} })).toBe("commands must be a list, but it is an object.");
    expect(refusal(nightbot(null))).toBe("commands[0] must be an object, but it is null.");
    expect(refusal(nightbot({ name: "a", message: "b" }, { name: "c", message: "d", coolDown: "30" }))).toBe(
      "commands[1].coolDown must be a number, but it is text.",
    );
    expect(refusal(nightbot({ name: ["a"], message: "b" }))).toBe(
      "commands[0].name must be text, but it is a list.",
    );
    expect(refusal(nightbot({ name: "a", message: 5 }))).toBe(
      "commands[0].message must be text, but it is a number.",
    );
    expect(refusal(nightbot({ name: "a", message: "b", userLevel: 3 }))).toBe(
      "commands[0].userLevel must be text, but it is a number.",
    );
    expect(refusal(nightbot({ name: "a", message: "b", alias: false }))).toBe(
      "commands[0].alias must be text, but it is true or false.",
    );
    expect(refusal(nightbot({ name: "a", message: "b", count: Number.POSITIVE_INFINITY }))).toBe(
      "commands[0].count must be a number, but it is a number.",
    );
    expect(refusal([{ command: "a", reply: "b", cooldown: { global: "5" } }])).toBe(
      "[0].cooldown.global must be a number, but it is text.",
    );
    expect(refusal([{ command: "a", reply: "b", cooldown: 5 }])).toBe(
      "[0].cooldown must be an object, but it is a number.",
    );
    expect(refusal([{ command: "a", reply: "b", aliases: ["x", 5] }])).toBe(
      "[0].aliases[1] must be text, but it is a number.",
    );
    expect(refusal([{ command: "a", reply: "b", enabled: "yes" }])).toBe(
      "[0].enabled must be true or false, but it is text.",
    );
    expect(refusal([{ command: "a", reply: "b", accessLevel: "100" }])).toBe(
      "[0].accessLevel must be a number, but it is text.",
    );
    expect(refusal([{ command: "a" }])).toBe("[0].reply must be text, but it is missing.");
  });

  test("a wrong type after many good commands still stores nothing: the plan is all or nothing", () => {
    const good = Array.from({ length: 50 }, (_, index) => ({ name: `c${index}`, message: "hi" }));
    expect(refusal(nightbot(...good, { name: "bad", message: null }))).toBe(
      "commands[50].message must be text, but it is null.",
    );
  });
});

describe("limits", () => {
  test(`a file of more than ${MAX_IMPORT_COMMANDS} commands is refused whole`, () => {
    const many = Array.from({ length: MAX_IMPORT_COMMANDS + 1 }, (_, index) => ({
      name: `c${index}`,
      message: "hi",
    }));
    expect(refusal(nightbot(...many))).toBe(
      "The file has 1001 commands; at most 1000 can be imported at once.",
    );
    expect(refusal(many.map(({ name, message }) => ({ command: name, reply: message })))).toBe(
      "The file has 1001 commands; at most 1000 can be imported at once.",
    );
  });

  test("a channel keeps at most 500 custom commands: the rest of the file says so", () => {
    const existing = Array.from({ length: 498 }, (_, index) => `old${index}`);
    const result = plan(
      nightbot(
        { name: "a", message: "1" },
        { name: "b", message: "2" },
        { name: "c", message: "3" },
        { name: "d", message: "$(eval 1)" },
      ),
      { existing },
    );
    expect(result.add.map((command) => command.name)).toEqual(["a", "b"]);
    expect(result.unsupported).toEqual([
      { name: "c", why: "The channel would have more than 500 custom commands." },
      { name: "d", why: "It uses $(eval), which cuebot has no equivalent for." },
    ]);
  });

  test("a full file of 1000 long commands is planned quickly", () => {
    const many = Array.from({ length: MAX_IMPORT_COMMANDS }, (_, index) => ({
      name: `c${index}`,
      message: `${"$(user) ".repeat(60)}`.trim(),
    }));
    const started = performance.now();
    const result = plan(nightbot(...many));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result.add).toHaveLength(500);
    expect(result.unsupported).toHaveLength(500);
  });
});
