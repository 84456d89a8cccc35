import { describe, expect, test } from "bun:test";
import { chatCaller, commandArgsOf } from "../../../server/bot/routes-input.ts";
import { QueryParams } from "../../../server/http/query-params.ts";

describe("a bot endpoint's request as a command call", () => {
  test("Nightbot and Fossabot headers tell the caller and channel", () => {
    const nightbot = new Request("http://localhost/x", {
      headers: {
        "Nightbot-User":
          "name=viewer_anna&displayName=Viewer_Anna&provider=twitch&providerId=100003&userLevel=moderator",
        "Nightbot-Channel": "name=cuebotdemo&displayName=CuebotDemo&provider=twitch&providerId=100001",
      },
    });
    expect(chatCaller(nightbot)).toEqual({
      channel: "cuebotdemo",
      user: "viewer_anna",
      displayName: "Viewer_Anna",
      userLevel: "moderator",
    });
    const fossabot = new Request("http://localhost/x", {
      headers: { "x-fossabot-channellogin": "cuebotdemo" },
    });
    expect(chatCaller(fossabot).channel).toBe("cuebotdemo");
  });

  test("a command's arguments are read from the query: only those it reads, the first value of each", () => {
    const query = new QueryParams("user=%40anna&precision=3&precision=4&sides=20&channel=");
    expect(commandArgsOf(query, "followage")).toEqual({ user: "@anna", channel: "", precision: "3" });
    expect(commandArgsOf(query, "dice")).toEqual({ user: "@anna", sides: "20", count: undefined });
    expect(commandArgsOf(new QueryParams(""), "clip")).toEqual({ user: undefined });
  });
});
