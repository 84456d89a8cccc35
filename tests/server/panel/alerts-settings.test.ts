import { afterEach, describe, expect, test } from "bun:test";
import { addAlertAsset } from "../../../db/alert-assets.ts";
import { readAlertSettings } from "../../../db/alerts.ts";
import { defaultAlertSettings } from "../../../server/alerts/model.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { createTestAccount } from "../../helpers/context.ts";
import { TROLL_TEXTS } from "../../helpers/troll-texts.ts";
import { PNG_1X1, wavBytes } from "./alert-files.ts";
import { call, expectRefusal } from "./chat-bot-panel.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const CHEER = "/api/dashboard/alerts/types/cheer";
const stored = async () => readAlertSettings(h.ctx.db, h.account.id);

describe("PUT /api/dashboard/alerts/types/:type", () => {
  test("changes the fields given and keeps the rest; the alerts view shows them", async () => {
    h = await startBotHarness();
    const now = h.ctx.clock.now();
    const image = await addAlertAsset(h.ctx.db, h.account.id, PNG_1X1, "image", now);
    const sound = await addAlertAsset(h.ctx.db, h.account.id, wavBytes(200), "sound", now);
    const reply = await call<{ type: string; settings: Record<string, unknown> }>(h, "PUT", CHEER, {
      template: "{user} threw {amount} bits 🎉 — «{message}»",
      minAmount: 100,
      durationSeconds: 8,
      volume: 0,
      imageId: image.id,
      soundId: sound.id,
      chatMessage: "Thanks for the {amount} bits, {user}!",
    });
    expect(reply.status).toBe(200);
    const expected = {
      ...defaultAlertSettings("cheer"),
      template: "{user} threw {amount} bits 🎉 — «{message}»",
      minAmount: 100,
      durationSeconds: 8,
      volume: 0,
      imageId: image.id,
      soundId: sound.id,
      chatMessage: "Thanks for the {amount} bits, {user}!",
    };
    expect(reply.body.data).toEqual({ type: "cheer", settings: expected });
    expect((await stored()).cheer).toEqual(expected);
    // Only what is named changes; null clears the chat line and the image.
    await call(h, "PUT", CHEER, { enabled: false, chatMessage: null, imageId: null });
    expect((await stored()).cheer).toEqual({ ...expected, enabled: false, chatMessage: null, imageId: null });
    expect((await stored()).follow).toEqual(defaultAlertSettings("follow"));
    const view = (
      await call<{ types: { type: string; settings: unknown }[] }>(h, "GET", "/api/dashboard/alerts")
    ).body.data;
    expect(view.types.find((t) => t.type === "cheer")!.settings).toEqual((await stored()).cheer);
  });

  test("each bad value is refused naming its field (message and X-Cuebot-Field), and nothing changes", async () => {
    h = await startBotHarness();
    const { account: other } = await createTestAccount(h.ctx);
    const foreignImage = await addAlertAsset(h.ctx.db, other.id, PNG_1X1, "image", h.ctx.clock.now());
    const ownSound = await addAlertAsset(h.ctx.db, h.account.id, wavBytes(50), "sound", h.ctx.clock.now());
    await call(h, "PUT", CHEER, { minAmount: 10 });
    const before = await stored();
    const bad: [Record<string, unknown>, string, string?][] = [
      [{ template: "{user} sent {bitz}!" }, "template", "{bitz} is not a placeholder"],
      [{ template: "" }, "template"],
      [{ template: "x".repeat(201) }, "template", "200"],
      [{ template: "🎉".repeat(201) }, "template", "200"],
      [{ template: "line\nbreak {user}" }, "template"],
      [{ template: "\u202e{user}" }, "template"],
      [{ template: "{<script>}" }, "template", "Braces hold a placeholder"],
      [{ template: 42 }, "template"],
      [{ minAmount: -1 }, "minAmount"],
      [{ minAmount: 1.5 }, "minAmount"],
      [{ minAmount: 1_000_001 }, "minAmount"],
      [{ durationSeconds: 1 }, "durationSeconds"],
      [{ durationSeconds: 31 }, "durationSeconds"],
      [{ volume: 101 }, "volume"],
      [{ volume: "80" }, "volume"],
      [{ imageId: foreignImage.id }, "imageId", `no uploaded image with id ${foreignImage.id}`],
      [{ imageId: ownSound.id }, "imageId"],
      [{ imageId: 0 }, "imageId"],
      [{ soundId: 999_999 }, "soundId"],
      [{ chatMessage: "Thanks {user}: {message}" }, "chatMessage", "{message}"],
      [{ chatMessage: "x".repeat(10_000) }, "chatMessage"],
      [{ enabled: "yes" }, "enabled"],
      [{ colour: "red" }, "colour", "Unknown body field"],
      // A good field beside a bad one: the good one is not stored either.
      [{ volume: 10, durationSeconds: 99 }, "durationSeconds"],
    ];
    for (const [body, field, words] of bad) {
      const reply = await call(h, "PUT", CHEER, body);
      expectRefusal(reply, 400, "bad_request", field);
      if (words) expect(reply.body.error.message).toContain(words);
    }
    expect(await stored()).toEqual(before);
  });

  test("troll texts in a template are kept as the very text (the overlay shows text, never markup); direction overrides are refused", async () => {
    h = await startBotHarness();
    for (const text of TROLL_TEXTS) {
      const reply = await call(h, "PUT", CHEER, { template: `${text} {user}` });
      const reorders = /[\u202a-\u202e]/u.test(text);
      expect({ text, status: reply.status }).toEqual({ text, status: reorders ? 400 : 200 });
      if (reorders) expect(reply.field).toBe("template");
      else expect((await stored()).cheer.template).toBe(`${text} {user}`);
    }
  });

  test("an unknown type and a body that is not an object are refused, and nothing is stored", async () => {
    h = await startBotHarness();
    expectRefusal(
      await call(h, "PUT", "/api/dashboard/alerts/types/donation", { volume: 5 }),
      400,
      "bad_request",
      "type",
    );
    expectRefusal(
      await call(h, "PUT", "/api/dashboard/alerts/types/%F0%9F%8E%89", { volume: 5 }),
      400,
      "bad_request",
      "type",
    );
    expectRefusal(await call(h, "PUT", CHEER, "[1]"), 400, "bad_request");
    expectRefusal(await call(h, "PUT", CHEER, "null"), 400, "bad_request");
    expect(await stored()).toEqual(await readAlertSettings(h.ctx.db, -1));
  });
});
