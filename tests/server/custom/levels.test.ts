import { describe, expect, test } from "bun:test";
import {
  admits,
  callerLevel,
  mayManage,
  parseLevel,
  USER_LEVELS,
  type UserLevel,
} from "../../../server/custom/levels.ts";
import { TROLL_TEXTS } from "../../helpers/troll-texts.ts";

const chatter = (badges: string[], chatterId = "42") => ({ badges, chatterId, broadcasterId: "1" });
const none = new Set<string>();

describe("user levels", () => {
  test("Nightbot's order, lowest to highest", () => {
    expect([...USER_LEVELS]).toEqual([
      "everyone",
      "subscriber",
      "regular",
      "twitch_vip",
      "moderator",
      "owner",
    ]);
  });

  test("names and short forms parse in any case; anything else is null", () => {
    expect(parseLevel("Moderator")).toBe("moderator");
    expect(parseLevel(" twitch_vip ")).toBe("twitch_vip");
    expect(parseLevel("mod")).toBe("moderator");
    expect(parseLevel("VIP")).toBe("twitch_vip");
    expect(parseLevel("sub")).toBe("subscriber");
    expect(parseLevel("reg")).toBe("regular");
    expect(parseLevel("broadcaster")).toBe("owner");
    for (const bad of [
      "god",
      "admin",
      "",
      "soop_vip",
      "constructor",
      "__proto__",
      "toString",
      "m0d",
      ...TROLL_TEXTS,
    ]) {
      expect(parseLevel(bad)).toBeNull();
    }
  });

  test("each level admits itself and those above, never those below", () => {
    for (const [i, level] of USER_LEVELS.entries()) {
      for (const [j, caller] of USER_LEVELS.entries()) expect(admits(level, caller)).toBe(j >= i);
    }
    expect(admits("regular", "twitch_vip")).toBe(true);
    expect(admits("twitch_vip", "regular")).toBe(false);
  });

  test("the caller's level comes from badges and the regulars list", () => {
    const level = (badges: string[], id?: string, regulars: ReadonlySet<string> = none): UserLevel =>
      callerLevel(chatter(badges, id), regulars);
    expect(level([], "1")).toBe("owner");
    expect(level(["broadcaster", "subscriber"])).toBe("owner");
    expect(level(["moderator"])).toBe("moderator");
    expect(level(["lead_moderator"])).toBe("moderator");
    expect(level(["vip", "subscriber"])).toBe("twitch_vip");
    expect(level(["vip"], "42", new Set(["42"]))).toBe("twitch_vip");
    expect(level(["subscriber"], "42", new Set(["42"]))).toBe("regular");
    expect(level([], "42", new Set(["42"]))).toBe("regular");
    expect(level(["subscriber"])).toBe("subscriber");
    expect(level(["founder"])).toBe("subscriber");
    expect(level(["premium", "turbo", "partner"])).toBe("everyone");
    expect(level([], "43", new Set(["42"]))).toBe("everyone");
  });

  test("only the broadcaster and moderators manage commands", () => {
    expect(USER_LEVELS.filter(mayManage)).toEqual(["moderator", "owner"]);
  });
});
