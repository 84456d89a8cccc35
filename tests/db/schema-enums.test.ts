import { describe, expect, test } from "bun:test";
import { parseUserLevel, USER_LEVELS, userLevelAdmits } from "../../db/schema-enums.ts";

describe("user levels (Nightbot's)", () => {
  test("lowest to highest, VIP above regular", () => {
    expect(USER_LEVELS).toEqual(["everyone", "subscriber", "regular", "twitch_vip", "moderator", "owner"]);
  });

  test("typed in any case with spaces around; anything else is none", () => {
    expect(parseUserLevel(" Moderator ")).toBe("moderator");
    expect(parseUserLevel("TWITCH_VIP")).toBe("twitch_vip");
    for (const input of ["", "vip", "admin", "mod", "owner!", "every one"])
      expect(parseUserLevel(input)).toBeNull();
  });

  test("each level admits the levels above it and no lower one", () => {
    expect(userLevelAdmits("everyone", "everyone")).toBe(true);
    expect(userLevelAdmits("regular", "twitch_vip")).toBe(true);
    expect(userLevelAdmits("twitch_vip", "regular")).toBe(false);
    expect(userLevelAdmits("moderator", "owner")).toBe(true);
    expect(userLevelAdmits("owner", "moderator")).toBe(false);
    for (const level of USER_LEVELS) expect(userLevelAdmits("everyone", level)).toBe(true);
  });
});
