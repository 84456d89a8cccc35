import { describe, expect, test } from "bun:test";
import { ACTION_ALERT_KINDS } from "../../../../../../server/vocabulary.ts";
import {
  newStep,
  newTrigger,
  STEP_TYPES,
  TRIGGER_TYPES,
  triggerSummary,
} from "../../../../../../server/web/app/views/actions/model.ts";
import { resultLine } from "../../../../../../server/web/app/views/actions/runs.ts";

describe("the Actions view's words", () => {
  test("a trigger in one line: the command with its level, an alert's amount only where it counts", () => {
    expect(triggerSummary({ type: "command", command: "brb", level: "moderator" })).toBe(
      "!brb from moderators+",
    );
    expect(triggerSummary({ type: "alert", kind: "raid", min: 5, reward: null })).toBe("Raid of 5+ viewers");
    expect(triggerSummary({ type: "alert", kind: "raid", min: 1, reward: null })).toBe("Raid");
    expect(triggerSummary({ type: "alert", kind: "cheer", min: 100, reward: null })).toBe(
      "Cheer of 100+ bits",
    );
    // A minimum means nothing for follows: none is shown.
    expect(triggerSummary({ type: "alert", kind: "follow", min: 50, reward: null })).toBe("Follow");
    expect(triggerSummary({ type: "alert", kind: "redemption", min: 0, reward: "Hydrate" })).toBe(
      "Redemption of “Hydrate”",
    );
    expect(triggerSummary({ type: "stream", state: "offline" })).toBe("Stream goes offline");
    expect(triggerSummary({ type: "button" })).toBe("Button");
  });

  test("every alert kind has a line, and a new trigger or step of each type is of that type", () => {
    for (const kind of ACTION_ALERT_KINDS)
      expect(triggerSummary({ type: "alert", kind, min: 0, reward: null }).length).toBeGreaterThan(0);
    for (const type of TRIGGER_TYPES) expect(newTrigger(type).type).toBe(type);
    for (const type of STEP_TYPES) expect(newStep(type).type).toBe(type);
    expect(STEP_TYPES).toEqual(["obs.scene", "obs.source", "obs.text", "obs.media", "chat", "wait"]);
  });

  test("a run in one line: done with its steps counted, or the failed step's error", () => {
    expect(resultLine({ ok: true, steps: [{ type: "obs.scene", ok: true, error: null }] })).toBe(
      "Done (1 step).",
    );
    expect(
      resultLine({
        ok: false,
        steps: [
          { type: "wait", ok: true, error: null },
          { type: "obs.scene", ok: false, error: 'OBS has no scene "Nowhere".' },
        ],
      }),
    ).toBe('Failed: OBS has no scene "Nowhere".');
  });
});
