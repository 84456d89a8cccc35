import { describe, expect, test } from "bun:test";
import { ALERT_TYPES } from "../../../../server/vocabulary.ts";
import { ALERT_LABELS, labelOf } from "../../../../server/web/overlay/labels.ts";

describe("the overlay's alert labels", () => {
  test("every alert type has its own label", () => {
    for (const type of ALERT_TYPES) expect(labelOf(type)).toEqual({ label: ALERT_LABELS[type], known: true });
    expect(new Set(Object.values(ALERT_LABELS)).size).toBe(ALERT_TYPES.length);
  });

  test("a type the page does not know (a newer server, or an object's own names) is a plain 'Alert'", () => {
    for (const type of ["hype_train", "constructor", "toString", "__proto__", "", "FOLLOW", "follow "])
      expect(labelOf(type)).toEqual({ label: "Alert", known: false });
  });
});
