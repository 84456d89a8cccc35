import { expect, test } from "bun:test";
import { asLogin } from "../../../server/bot/lookups.ts";

test("only names that can be platform logins are looked up", () => {
  expect(asLogin("Viewer_Anna")).toBe("viewer_anna");
  expect(asLogin("데모시청자")).toBeNull();
  expect(asLogin("has space")).toBeNull();
  expect(asLogin("x".repeat(26))).toBeNull();
});
