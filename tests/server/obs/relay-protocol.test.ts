import { describe, expect, test } from "bun:test";
import {
  parseRelayAnswer,
  parseRelayOrder,
  parseRelayReport,
  parseRelaySettings,
  RELAY_LIMITS,
  RELAY_REFUSAL,
} from "../../../server/obs/relay-protocol.ts";
import { parseObsStep } from "../../../server/obs/steps.ts";

/**
 * What cuebot and the overlay page say to each other (`via: overlay`), read field by field on arrival:
 * the page's reports and answers, the orders it accepts (the four OBS steps, nothing else), the settings.
 */

const REPORT = {
  page: "3f1c9a",
  state: "connected",
  obsVersion: "29.0.2",
  scenes: ["Live", "BRB"],
  sources: ["Mic"],
  code: null,
};

describe("the page's report", () => {
  test("read as sent", () => {
    expect(parseRelayReport(REPORT)).toEqual(REPORT as never);
  });

  test("each bad field named: a state outside the list, a page id with odd characters, lists too long", () => {
    expect(parseRelayReport({ ...REPORT, state: "off" })).toEqual({ bad: "state" });
    expect(parseRelayReport({ ...REPORT, state: "constructor" })).toEqual({ bad: "state" });
    expect(parseRelayReport({ ...REPORT, page: "../../x" })).toEqual({ bad: "page" });
    expect(parseRelayReport({ ...REPORT, page: "a".repeat(65) })).toEqual({ bad: "page" });
    expect(parseRelayReport({ ...REPORT, scenes: "Live" })).toEqual({ bad: "scenes" });
    expect(parseRelayReport({ ...REPORT, scenes: [1] })).toEqual({ bad: "scenes" });
    expect(parseRelayReport({ ...REPORT, sources: Array(RELAY_LIMITS.names + 1).fill("x") })).toEqual({
      bad: "sources",
    });
    expect(parseRelayReport({ ...REPORT, sources: ["x".repeat(RELAY_LIMITS.name + 1)] })).toEqual({
      bad: "sources",
    });
    expect(parseRelayReport({ ...REPORT, obsVersion: 29 })).toEqual({ bad: "obsVersion" });
    expect(parseRelayReport({ ...REPORT, code: 1.5 })).toEqual({ bad: "code" });
    expect(parseRelayReport([REPORT])).toEqual({ bad: "body" });
    expect(parseRelayReport(null)).toEqual({ bad: "body" });
  });
});

describe("a step's answer", () => {
  test("done, or failed with what failed; anything else named", () => {
    expect(parseRelayAnswer({ page: "p1", id: "s1", ok: true, wasVisible: true })).toEqual({
      page: "p1",
      id: "s1",
      ok: true,
      wasVisible: true,
    });
    const failed = { page: "p1", id: "s1", ok: false, failed: "step", error: 'OBS has no scene "X".' };
    expect(parseRelayAnswer(failed)).toEqual(failed as never);
    expect(parseRelayAnswer({ ...failed, failed: "other" })).toEqual({ bad: "failed" });
    expect(parseRelayAnswer({ ...failed, error: "" })).toEqual({ bad: "error" });
    expect(parseRelayAnswer({ ...failed, error: "x".repeat(RELAY_LIMITS.error + 1) })).toEqual({
      bad: "error",
    });
    expect(parseRelayAnswer({ ...failed, ok: "yes" })).toEqual({ bad: "ok" });
    expect(parseRelayAnswer({ ...failed, id: "" })).toEqual({ bad: "id" });
  });
});

describe("an order, as the page reads it", () => {
  test("one of the four OBS steps is carried out; the step is rebuilt from its own fields only", () => {
    const text = JSON.stringify({
      id: "s1",
      step: { type: "obs.scene", scene: "BRB", requestType: "StopStream", requestData: {} },
    });
    expect(parseRelayOrder(text)).toEqual({ id: "s1", step: { type: "obs.scene", scene: "BRB" } });
  });

  test("anything else is refused: a raw obs-websocket request, an unknown type, a step missing a field", () => {
    const refused = (order: unknown) => parseRelayOrder(JSON.stringify(order));
    expect(refused({ id: "s1", step: { requestType: "StopStream" } })).toEqual({
      refused: RELAY_REFUSAL,
      id: "s1",
    });
    expect(refused({ id: "s1", step: { type: "CallVendorRequest", vendorName: "obs-browser" } })).toEqual({
      refused: RELAY_REFUSAL,
      id: "s1",
    });
    expect(refused({ id: "s1", step: { type: "obs.source", scene: "Live", source: "Cam" } })).toEqual({
      refused: RELAY_REFUSAL,
      id: "s1",
    });
    expect(refused({ id: "s1", step: { type: "obs.media", source: "Clip", action: "pause" } })).toEqual({
      refused: RELAY_REFUSAL,
      id: "s1",
    });
    expect(refused({ op: 6, d: { requestType: "StopStream" } })).toEqual({ refused: "no id", id: null });
    expect(parseRelayOrder("not json")).toEqual({ refused: "not JSON", id: null });
  });

  test("every step type reads back as itself", () => {
    for (const step of [
      { type: "obs.scene", scene: "Live" },
      { type: "obs.source", scene: "Live", source: "Cam", visible: false, seconds: 5 },
      { type: "obs.source", scene: "Live", source: "Cam", visible: true },
      { type: "obs.text", source: "Title", text: "" },
      { type: "obs.media", source: "Clip", action: "restart" },
    ]) {
      expect(parseObsStep(step)).toEqual(step as never);
    }
    expect(
      parseObsStep({ type: "obs.source", scene: "Live", source: "Cam", visible: true, seconds: -1 }),
    ).toBeNull();
    expect(parseObsStep({ type: "obs.scene", scene: "" })).toBeNull();
  });
});

describe("the settings, as the page reads them", () => {
  test("OBS to connect to, or off; anything else ignored", () => {
    const on = { enabled: true, url: "ws://127.0.0.1:4455", password: "pw" };
    expect(parseRelaySettings(JSON.stringify(on))).toEqual(on as never);
    expect(parseRelaySettings('{"enabled":false}')).toEqual({ enabled: false });
    expect(parseRelaySettings(JSON.stringify({ ...on, url: "http://127.0.0.1:4455" }))).toBeNull();
    expect(parseRelaySettings(JSON.stringify({ ...on, password: 5 }))).toBeNull();
    expect(parseRelaySettings("{")).toBeNull();
  });
});
