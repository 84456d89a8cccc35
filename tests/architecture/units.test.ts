// Small units (ARCHITECTURE.md): a function a reader takes in at once, a file of one job.
import { expect, test } from "bun:test";
import { longUnits } from "../../scripts/long-units.ts";

test("no function over ~150 lines and no file over ~500 (bun scripts/long-units.ts lists them)", () => {
  expect(longUnits()).toEqual([]);
});

test("the check finds a long unit", () => {
  expect(longUnits(40, 300).length).toBeGreaterThan(0);
});
