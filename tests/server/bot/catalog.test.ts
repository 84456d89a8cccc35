import { afterEach, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { ALIAS_PATTERN, COMMAND_DEFINITIONS, COMMAND_NAMES } from "../../../server/bot/catalog.ts";
import type { ChatWord } from "../../../server/bot/definition.ts";
import type { SimBadge } from "../../../server/sim/twitch/chat/chatters.ts";
import { type BotHarness, NIGHTBOT, startBotHarness } from "../../helpers/bot.ts";
import { type ChatHarness, startChatHarness } from "../../helpers/chat.ts";
import { waitUntilReading } from "../../helpers/custom-chat.ts";

// The registry is the one place a built-in command is described: these tests hold that everything
// else (its bot route and /docs entry, the panel's list, native chat's triggers and words) follows
// from each registered definition, so adding one is its file and its line in bot/catalog.ts.

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

const ROUTED = COMMAND_DEFINITIONS.flatMap(({ route, inputs }) => (route ? [{ route, inputs }] : []));
const argOf = (word: ChatWord<string>) =>
  typeof word === "string" ? word : "rest" in word ? word.rest : word.arg;

describe("every registered command's definition", () => {
  test("names, aliases and defaults are consistent", () => {
    const triggers = COMMAND_DEFINITIONS.flatMap((d) => [d.name, ...d.aliases]);
    expect(new Set(triggers).size).toBe(triggers.length);
    for (const d of COMMAND_DEFINITIONS) {
      expect(d.name).toMatch(ALIAS_PATTERN);
      for (const alias of d.aliases) expect(alias).toMatch(ALIAS_PATTERN);
      expect(Value.Check(d.options, d.defaults)).toBe(true);
    }
    expect<readonly string[]>(COMMAND_NAMES).toEqual(COMMAND_DEFINITIONS.map((d) => d.name));
  });

  test("reads `user` and its inputs, fills from chat only what it reads, and leaves the reserved query names alone", () => {
    for (const d of COMMAND_DEFINITIONS) {
      expect(d.reads[0]).toBe("user");
      expect(new Set(d.reads)).toEqual(new Set(["user", ...Object.keys(d.inputs)]));
      for (const word of d.chat ?? []) expect(d.reads).toContain(argOf(word));
      // format= picks text mode, apiKey= carries the key (http/text-mode.ts, http/auth.ts).
      expect(d.reads).not.toContain("format");
      expect(d.reads).not.toContain("apiKey");
    }
  });

  test("a route lives where the text mode and the API key apply (/api/bot/, or followage's own path)", () => {
    for (const { route } of ROUTED) {
      if (route.path !== "/api/followage") expect(route.path).toStartWith("/api/bot/");
    }
  });
});

describe("what the registry derives, seen from outside", () => {
  test("each route answers over HTTP in text mode and has its /docs entry; the panel lists every command", async () => {
    const h: BotHarness = await startBotHarness();
    stop = () => h.stop();
    const docs = (await (await h.request("/docs/json")).json()) as {
      paths: Record<string, { get?: { tags: string[]; summary: string; parameters: { name: string }[] } }>;
    };
    const botPaths = Object.entries(docs.paths).filter(([, item]) => item.get?.tags.includes("bot"));
    expect(botPaths.map(([path]) => path)).toEqual(ROUTED.map((d) => d.route.path));
    for (const { route, inputs } of ROUTED) {
      const entry = docs.paths[route.path]?.get;
      expect(entry?.summary).toBe(route.summary);
      expect(entry?.parameters.map((p) => p.name)).toEqual(Object.keys(inputs));
      const res = await h.bot(route.path, NIGHTBOT("viewer_anna"));
      expect(res.headers.get("content-type")).toStartWith("text/plain");
      expect(res.headers.get("x-cuebot-status")).toMatch(/^\d{3}$/);
      expect((await res.text()).length).toBeGreaterThan(0);
    }
    const listed = (await (await h.panel("/api/dashboard/commands")).json()) as {
      data: { command: string; description: string; defaults: unknown; aliases: string[] }[];
    };
    expect(listed.data).toEqual(
      COMMAND_DEFINITIONS.map((d) =>
        expect.objectContaining({
          command: d.name,
          description: d.description,
          defaults: d.defaults,
          aliases: [...d.aliases],
        }),
      ),
    );
  });

  test("native chat answers each command by its name and by each default alias", async () => {
    const h: ChatHarness = await startChatHarness();
    stop = () => h.stop();
    await h.startChat();
    await waitUntilReading(h);
    // A moderator is not held to 3 answers per 30 s.
    const badges: SimBadge[] = [{ set_id: "moderator", id: "1", info: "" }];
    for (const trigger of COMMAND_DEFINITIONS.flatMap((d) => [d.name, ...d.aliases])) {
      const id = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: `!${trigger}`, badges });
      const reply = await h.replyTo(id);
      expect({ trigger, answered: (reply?.text.length ?? 0) > 0 }).toEqual({ trigger, answered: true });
    }
  });
});
