import { describe, expect, test } from "bun:test";
import { chatName, isUnreplacedTemplate } from "../../../server/core/chat-text.ts";

describe("chat-style input", () => {
  test("a leading @ is stripped, blanks and unreplaced templates count as missing", () => {
    expect(chatName("@Viewer_Anna")).toBe("Viewer_Anna");
    expect(chatName("  @@bob ")).toBe("bob");
    expect(chatName("")).toBeUndefined();
    expect(chatName("   ")).toBeUndefined();
    expect(chatName("$(touser)")).toBeUndefined();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a StreamElements variable the bot left unreplaced
    expect(chatName("${user}")).toBeUndefined();
    expect(chatName("%input0%")).toBeUndefined();
    expect(chatName("%userName%")).toBeUndefined();
    expect(chatName("100%")).toBe("100%");
    expect(chatName(null)).toBeUndefined();
  });

  test("an unreplaced bot variable is told from text that merely has a $ or a %", () => {
    expect(isUnreplacedTemplate(" $(1) ")).toBe(true);
    expect(isUnreplacedTemplate("%input0%")).toBe(true);
    expect(isUnreplacedTemplate("$5")).toBe(false);
    expect(isUnreplacedTemplate("50%")).toBe(false);
  });
});
