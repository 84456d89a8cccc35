import { expect, test } from "bun:test";
import { echoable, echoablePlayer } from "../../../server/core/chat-echo.ts";

test("a reply repeats only a login-shaped name, its leading @ dropped", () => {
  expect(echoable(" @@Viewer_Anna ")).toBe("Viewer_Anna");
  expect(echoable("https://example.com")).toBeNull();
  expect(echoable("has space")).toBeNull();
  expect(echoable("x".repeat(26))).toBeNull();
  expect(echoable(undefined)).toBeNull();
  expect(echoablePlayer("Kestrel", "EUW")).toBe("Kestrel#EUW");
  expect(echoablePlayer("데모시청자", "KR1")).toBeNull();
});
