import { describe, expect, test } from "bun:test";
import { chatLine, wantsText } from "../../../server/http/text-mode.ts";

describe("text mode", () => {
  test("text mode: format=text, Nightbot or Fossabot headers; format=json forces JSON", () => {
    expect(wantsText(new Request("http://localhost/x?format=text"))).toBe(true);
    expect(wantsText(new Request("http://localhost/x", { headers: { "Nightbot-User": "name=a" } }))).toBe(
      true,
    );
    expect(wantsText(new Request("http://localhost/x", { headers: { "x-fossabot-channelid": "1" } }))).toBe(
      true,
    );
    expect(
      wantsText(new Request("http://localhost/x?format=json", { headers: { "Nightbot-User": "name=a" } })),
    ).toBe(false);
    expect(wantsText(new Request("http://localhost/x"))).toBe(false);
  });

  test("a chat line is one line of at most 380 characters", () => {
    expect(chatLine("a\nb\r\n\tc")).toBe("a b c");
    const long = chatLine("word ".repeat(200));
    expect(long.length).toBeLessThanOrEqual(380);
    expect(long.endsWith("…")).toBe(true);
    // Cut by code points: never half an emoji.
    const emoji = chatLine("🎱".repeat(400));
    expect(emoji).not.toContain("\uFFFD");
    expect(Array.from(emoji).every((c) => c === "🎱" || c === "…")).toBe(true);
  });

  test("a chat bot posts the line as it comes: it never leads with a command character (CONTRACT §6)", () => {
    expect(chatLine("!ban viewer")).toBe("ban viewer");
    expect(chatLine("\u200B\u2066/timeout viewer 600")).toBe("timeout viewer 600");
    expect(chatLine("\n.me waves")).toBe("waves");
    expect(chatLine("Rank: Gold 2 (!rank)")).toBe("Rank: Gold 2 (!rank)");
  });
});
