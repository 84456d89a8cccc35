import { expect, test } from "bun:test";
import { ApiError } from "../../../server/core/errors.ts";
import { enumParam, integerParam } from "../../../server/core/params.ts";

const range = { min: 1, max: 7, fallback: 2 };

test("a number parameter: blanks and unreplaced variables take the fallback, anything else names it", () => {
  expect(integerParam(" 5 ", "precision", range)).toBe(5);
  expect(integerParam(undefined, "precision", range)).toBe(2);
  expect(integerParam("$(1)", "precision", range)).toBe(2);
  for (const bad of ["8", "0", "1.5", "-1", "two"]) {
    expect(() => integerParam(bad, "precision", range)).toThrow(
      new ApiError(400, "bad_request", 'The query parameter "precision" must be a whole number from 1 to 7.'),
    );
  }
});

test("a choice parameter is read case-insensitively and names the choices when wrong", () => {
  expect(enumParam("DAY", "period", ["day", "week"], "week")).toBe("day");
  expect(enumParam("", "period", ["day", "week"], "week")).toBe("week");
  expect(() => enumParam("year", "period", ["day", "week"], "week")).toThrow(
    'The query parameter "period" must be one of day, week.',
  );
});
