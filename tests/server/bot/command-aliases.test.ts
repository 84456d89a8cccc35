import { afterEach, describe, expect, test } from "bun:test";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { FOLDING_LOOKALIKES } from "../../helpers/troll-texts.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

interface ListedCommand {
  command: string;
  aliases: string[];
}

const list = async () =>
  ((await (await h.panel("/api/dashboard/commands")).json()) as { data: ListedCommand[] }).data;
const aliasesOf = async (command: string) => (await list()).find((c) => c.command === command)?.aliases;
const put = (command: string, body: unknown) =>
  h.panel(`/api/dashboard/commands/${command}`, { method: "PUT", body: JSON.stringify(body) });
const error = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string } }).error;

describe("chat triggers: command aliases", () => {
  test("each command lists its default aliases; !so and !8ball work out of the box", async () => {
    h = await startBotHarness();
    expect(await aliasesOf("shoutout")).toEqual(["so"]);
    expect(await aliasesOf("magic8")).toEqual(["8ball"]);
    expect(await aliasesOf("followage")).toEqual([]);
  });

  test("saved aliases are normalised (leading !, case, blanks, repeats) and kept", async () => {
    h = await startBotHarness();
    const res = await put("followage", { aliases: ["!FollowAge2", " howlong ", "howlong"] });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: ListedCommand }).data.aliases).toEqual(["followage2", "howlong"]);
    expect(await aliasesOf("followage")).toEqual(["followage2", "howlong"]);
    // Other settings are untouched by an aliases-only update.
    const cleared = await put("shoutout", { aliases: [] });
    expect(cleared.status).toBe(200);
    expect(await aliasesOf("shoutout")).toEqual([]);
  });

  test("bad aliases are refused with 400 naming the problem, and nothing is stored", async () => {
    h = await startBotHarness();
    const bad: [unknown, string][] = [
      ["so", '"aliases" must be a list'],
      [Array.from({ length: 11 }, (_, i) => `a${i}`), "at most 10"],
      [["two words"], "is not valid"],
      [[""], "is not valid"],
      [[42], "is not valid"],
      [["x".repeat(26)], "is not valid"],
      [["héllo"], "is not valid"],
    ];
    for (const [aliases, message] of bad) {
      const res = await put("magic8", { aliases });
      expect(res.status).toBe(400);
      const e = await error(res);
      expect(e.code).toBe("bad_request");
      expect(e.message).toContain(message);
    }
    expect(await aliasesOf("magic8")).toEqual(["8ball"]);
  });

  test("aliases that fold into ASCII (the Kelvin sign, ſ, fullwidth, İ, ﬁ) are refused naming the field", async () => {
    h = await startBotHarness();
    for (const lookalike of FOLDING_LOOKALIKES) {
      const res = await put("magic8", { aliases: ["8ball", `!${lookalike}`] });
      expect(res.status).toBe(400);
      const e = await error(res);
      expect(e.code).toBe("bad_request");
      expect(e.message).toContain('"aliases"');
    }
    expect(await aliasesOf("magic8")).toEqual(["8ball"]);
  });

  test("a trigger names one command: another command's name or alias is refused", async () => {
    h = await startBotHarness();
    const taken = await put("magic8", { aliases: ["so"] });
    expect(taken.status).toBe(400);
    expect((await error(taken)).message).toBe(
      'The alias "so" already triggers the shoutout command; choose another.',
    );
    const name = await put("magic8", { aliases: ["clip"] });
    expect(name.status).toBe(400);
    expect((await error(name)).message).toBe(
      'The alias "clip" is the name of the clip command; choose another.',
    );
    expect(await aliasesOf("magic8")).toEqual(["8ball"]);
  });
});
