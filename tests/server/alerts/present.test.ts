// An alert as the overlay plays it: the stored event with its type's settings.
import { describe, expect, test } from "bun:test";
import {
  ALERT_TYPES,
  type AlertFields,
  type AlertType,
  defaultAlertSettings,
} from "../../../server/alerts/model.ts";
import { type PresentableEvent, presentAlert, shownOnOverlay } from "../../../server/alerts/present.ts";
import { sampleFields } from "../../../server/alerts/samples.ts";

const event = (type: AlertType, fields: Partial<AlertFields> = {}, test = false): PresentableEvent => ({
  id: 41,
  type,
  fields: { ...sampleFields(type), ...fields },
  test,
  at: 1_700_000_000_000,
});

describe("presentAlert", () => {
  test("every type's default template reads as a sentence with the event's fields", () => {
    const texts = Object.fromEntries(
      ALERT_TYPES.map((type) => [type, presentAlert(event(type), defaultAlertSettings(type)).text]),
    );
    expect(texts).toEqual({
      follow: "CuebotTester just followed!",
      subscribe: "CuebotTester subscribed!",
      resub: "CuebotTester subscribed for 7 months!",
      gift: "CuebotTester gifted 5 subs!",
      cheer: "CuebotTester cheered 500 bits!",
      raid: "CuebotTester is raiding with 42 viewers!",
      redemption: "CuebotTester redeemed Hydrate!!",
    });
  });

  test("the settings' duration, image, sound and volume; the event's id, time, fields and test flag", () => {
    const settings = {
      ...defaultAlertSettings("cheer"),
      durationSeconds: 9,
      imageId: 3,
      soundId: 4,
      volume: 35,
    };
    const alert = presentAlert(event("cheer", {}, true), settings);
    expect(alert).toEqual({
      id: 41,
      type: "cheer",
      fields: event("cheer").fields,
      at: 1_700_000_000_000,
      test: true,
      text: "CuebotTester cheered 500 bits!",
      durationMs: 9000,
      imageId: 3,
      soundId: 4,
      volume: 35,
    });
  });

  test("a custom template with the viewer's message; a missing field leaves no 'null' or 'undefined'", () => {
    const settings = { ...defaultAlertSettings("cheer"), template: "{user}: {amount} bits, {message}" };
    expect(presentAlert(event("cheer", { message: "gg ✨ 🎉" }), settings).text).toBe(
      "CuebotTester: 500 bits, gg ✨ 🎉",
    );
    const anonymous = presentAlert(
      event("gift", { user: "Anonymous", amount: null }),
      defaultAlertSettings("gift"),
    );
    expect(anonymous.text).not.toMatch(/null|undefined/);
    expect(anonymous.text).toStartWith("Anonymous gifted");
  });

  test("odd Unicode and markup in a name stay text as given (the overlay shows text, never HTML)", () => {
    const user = "<img src=x onerror=alert(1)> Ω\u202e";
    const alert = presentAlert(event("follow", { user }), defaultAlertSettings("follow"));
    expect(alert.text).toContain("<img src=x onerror=alert(1)>");
  });

  test("a stored duration or volume out of range is held to 2–30 s and 0–100", () => {
    const odd = { ...defaultAlertSettings("raid"), durationSeconds: 900, volume: -5 };
    expect(presentAlert(event("raid"), odd)).toMatchObject({ durationMs: 30_000, volume: 0 });
    const nan = { ...defaultAlertSettings("raid"), durationSeconds: Number.NaN, volume: 1e9 };
    expect(presentAlert(event("raid"), nan)).toMatchObject({ durationMs: 6000, volume: 100 });
  });
});

describe("shownOnOverlay", () => {
  test("a type turned off, or a cheer below the minimum, is not shown; a test alert always is", () => {
    const off = { ...defaultAlertSettings("follow"), enabled: false };
    expect(shownOnOverlay(event("follow"), off)).toBe(false);
    expect(shownOnOverlay(event("follow", {}, true), off)).toBe(true);
    const min = { ...defaultAlertSettings("cheer"), minAmount: 1000 };
    expect(shownOnOverlay(event("cheer"), min)).toBe(false);
    expect(shownOnOverlay(event("cheer", { amount: 1000 }), min)).toBe(true);
    expect(shownOnOverlay(event("follow"), defaultAlertSettings("follow"))).toBe(true);
  });
});

describe("shownOnOverlay: what was asked for", () => {
  test("a replay (event key replay:…) shows like a test alert: type off or below its minimum", () => {
    const off = { ...defaultAlertSettings("cheer"), enabled: false, minAmount: 1000 };
    const small = event("cheer", { amount: 5 });
    expect(shownOnOverlay(small, off)).toBe(false);
    expect(shownOnOverlay({ ...small, eventKey: "replay:41:0b9e" }, off)).toBe(true);
    expect(shownOnOverlay({ ...small, eventKey: "msg-replay:41" }, off)).toBe(false);
    expect(shownOnOverlay({ ...small, eventKey: "" }, off)).toBe(false);
  });
});
