/**
 * A moderator's `!addcom` of a name an action's command trigger answers is refused as a built-in's
 * is (CONTRACT §6 "Actions"): the line in chat says why, and nothing is stored.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { listCustomCommands } from "../../../db/custom-commands.ts";
import type { ActionInput } from "../../../server/actions/model.ts";
import { createAction } from "../../../server/actions/store.ts";
import { REPLIES } from "../../../server/custom/changes.ts";
import type { ChatHarness } from "../../helpers/chat.ts";
import { chatLines, startConnectedChat } from "../../helpers/custom-chat.ts";

let h: ChatHarness;
afterEach(async () => {
  await h.stop();
});

const { mod } = chatLines(() => h);

describe("custom commands beside actions", () => {
  test("!addcom of an action's command is refused, on or off; another name is added", async () => {
    h = await startConnectedChat();
    const brb: ActionInput = {
      name: "BRB",
      enabled: false,
      cooldownSeconds: 0,
      trigger: { type: "command", command: "brb", level: "moderator" },
      steps: [{ type: "obs.scene", scene: "BRB" }],
    };
    await createAction(h.ctx.db, h.account.id, brb, 0);
    expect(await mod("!addcom !BRB be right back")).toBe(REPLIES.action("brb"));
    expect(await mod("!commands add !brb be right back")).toBe(REPLIES.action("brb"));
    expect(await listCustomCommands(h.ctx.db, h.account.id)).toEqual([]);
    expect(await mod("!addcom !brb2 be right back")).toBe(REPLIES.added("brb2"));
  });
});
