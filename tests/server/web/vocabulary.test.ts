// The pages and the server speak one vocabulary (server/vocabulary.ts): every word the panel API
// answers with (an alert type, a connection state, a command's name, a role) is one the browser's
// types know and has its words on the pages, the dashboard's and the overlay's. The compiler holds
// the browser to the vocabulary; this holds the server's real answers to it.
import { afterEach, describe, expect, test } from "bun:test";
import { ALERT_TYPES, COMMAND_NAMES, ROLES } from "../../../server/vocabulary.ts";
import { STATE_TEXT } from "../../../server/web/app/lib/connection-states.ts";
import { TYPE_FACTS } from "../../../server/web/app/views/alerts/types.ts";
import { ALERT_LABELS } from "../../../server/web/overlay/labels.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

async function data<T>(path: string): Promise<T> {
  const response = await h.panel(path);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

const hasText = (texts: object, word: string) => Object.hasOwn(texts, word);

describe("the words of the API's answers, on the pages", () => {
  test("every alert type the server lists has its label on the dashboard and on the overlay, every state its text", async () => {
    h = await startBotHarness();
    const alerts = await data<{ state: string; types: { type: string; state: string }[] }>(
      "/api/dashboard/alerts",
    );
    expect(alerts.types.map((t) => t.type)).toEqual([...ALERT_TYPES]);
    for (const { type, state } of alerts.types) {
      expect(hasText(TYPE_FACTS, type)).toBe(true);
      expect(hasText(ALERT_LABELS, type)).toBe(true);
      expect(hasText(STATE_TEXT, state)).toBe(true);
    }
    expect(hasText(STATE_TEXT, alerts.state)).toBe(true);
    const chat = await data<{ state: string }>("/api/dashboard/chat");
    expect(hasText(STATE_TEXT, chat.state)).toBe(true);
  });

  test("the commands the server offers are the vocabulary's, in its order; the role is one of its roles", async () => {
    h = await startBotHarness();
    const commands = await data<{ command: string }[]>("/api/dashboard/commands");
    expect(commands.map((c) => c.command)).toEqual([...COMMAND_NAMES]);
    const profile = await data<{ role: string }>("/api/dashboard/profile");
    expect(ROLES as readonly string[]).toContain(profile.role);
  });

  test("the overlay page's script is the typed one, bundled: every alert label is in what the page loads", async () => {
    h = await startBotHarness();
    const script = await h.request("/assets/overlay.js");
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const code = await script.text();
    expect(code).not.toMatch(/(?<![\w$.-])import\s*[{"'*(]/);
    for (const label of Object.values(ALERT_LABELS)) expect(code).toContain(JSON.stringify(label));
  });
});
