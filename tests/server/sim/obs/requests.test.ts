import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ObsSocket } from "../../../helpers/obs-socket.ts";
import { OBS_TARGETS, type RunningObs } from "./targets.ts";

/**
 * The requests and events cuebot's actions use (reference/obs.md §3–5), the same test against the
 * simulator and a real OBS: each test builds its own scene with the same requests (names are unique, as
 * the real OBS keeps one scene collection for the whole file), then changes it and reads it back.
 */

const SCENES = 1 << 2;
const INPUTS = 1 << 3;
const SCENE_ITEMS = 1 << 7;
const ALL = 2047;

const NEEDED_REQUESTS = [
  "GetVersion",
  "GetSceneList",
  "GetCurrentProgramScene",
  "SetCurrentProgramScene",
  "GetInputList",
  "GetSceneItemList",
  "GetSceneItemId",
  "GetSceneItemEnabled",
  "SetSceneItemEnabled",
  "GetInputSettings",
  "SetInputSettings",
  "TriggerMediaInputAction",
  "GetMediaInputStatus",
  "CreateScene",
  "CreateInput",
  "Sleep",
];

describe.each(OBS_TARGETS)("$name: requests and events", (target) => {
  let obs: RunningObs;
  let client: ObsSocket;
  let counter = 0;
  const open: ObsSocket[] = [];

  const connect = async (eventSubscriptions = ALL) => {
    const socket = await ObsSocket.open(obs.url);
    open.push(socket);
    await socket.identify(obs.password, eventSubscriptions);
    return socket;
  };

  /** A fresh scene with a text source "<scene> text" in it; returns their names and the item's id. */
  const sceneWithText = async (text = "hello") => {
    const scene = `Scene ${++counter} ${target.name}`;
    const source = `${scene} text`;
    await client.call("CreateScene", { sceneName: scene });
    const created = await client.call("CreateInput", {
      sceneName: scene,
      inputName: source,
      inputKind: "text_ft2_source_v2",
      inputSettings: { text },
    });
    return { scene, source, itemId: created.sceneItemId as number };
  };

  beforeAll(async () => {
    obs = await target.start();
    client = await connect();
  });
  afterAll(async () => {
    for (const socket of open) socket.close();
    await obs.stop();
  });

  test("GetVersion: OBS 29.0.2, obs-websocket 5.1.0, RPC 1, and every request cuebot needs", async () => {
    const version = await client.call("GetVersion");
    expect(Object.keys(version).sort()).toEqual([
      "availableRequests",
      "obsVersion",
      "obsWebSocketVersion",
      "platform",
      "platformDescription",
      "rpcVersion",
      "supportedImageFormats",
    ]);
    expect(version).toMatchObject({ obsVersion: "29.0.2", obsWebSocketVersion: "5.1.0", rpcVersion: 1 });
    expect(version.availableRequests).toEqual(expect.arrayContaining(NEEDED_REQUESTS));
    expect(version.supportedImageFormats).toEqual(expect.arrayContaining(["png", "jpg"]));
  });

  test("CreateScene and CreateInput: listed by GetSceneList, GetInputList and GetSceneItemList", async () => {
    const { scene, source, itemId } = await sceneWithText();
    expect(itemId).toBe(1);
    const list = await client.call("GetSceneList");
    expect(Object.keys(list).sort()).toEqual([
      "currentPreviewSceneName",
      "currentProgramSceneName",
      "scenes",
    ]);
    expect(list.currentPreviewSceneName).toBeNull();
    const scenes = list.scenes as Array<{ sceneIndex: number; sceneName: string }>;
    expect(scenes[0]).toEqual({ sceneIndex: 0, sceneName: scene });
    expect(scenes.map((s) => s.sceneIndex)).toEqual(scenes.map((_, i) => i));
    const inputs = (await client.call("GetInputList")).inputs as unknown[];
    expect(inputs).toContainEqual({
      inputKind: "text_ft2_source_v2",
      inputName: source,
      unversionedInputKind: "text_ft2_source",
    });
    const items = (await client.call("GetSceneItemList", { sceneName: scene })).sceneItems as Array<
      Record<string, unknown>
    >;
    expect(items).toHaveLength(1);
    expect(Object.keys(items[0]!).sort()).toEqual([
      "inputKind",
      "isGroup",
      "sceneItemBlendMode",
      "sceneItemEnabled",
      "sceneItemId",
      "sceneItemIndex",
      "sceneItemLocked",
      "sceneItemTransform",
      "sourceName",
      "sourceType",
    ]);
    expect(items[0]).toMatchObject({
      inputKind: "text_ft2_source_v2",
      isGroup: null,
      sceneItemBlendMode: "OBS_BLEND_NORMAL",
      sceneItemEnabled: true,
      sceneItemId: 1,
      sceneItemIndex: 0,
      sceneItemLocked: false,
      sourceName: source,
      sourceType: "OBS_SOURCE_TYPE_INPUT",
    });
    expect(await client.call("GetSceneItemId", { sceneName: scene, sourceName: source })).toEqual({
      sceneItemId: 1,
    });
  });

  test("a new input is announced with InputCreated; a new scene with SceneCreated and SceneListChanged", async () => {
    const { scene, source } = await sceneWithText("announced");
    const created = await client.event("InputCreated", { inputName: source });
    expect(created.eventIntent).toBe(INPUTS);
    expect(created.eventData).toMatchObject({
      inputKind: "text_ft2_source_v2",
      inputSettings: { text: "announced" },
      unversionedInputKind: "text_ft2_source",
    });
    expect(Object.keys(created.eventData!).sort()).toEqual([
      "defaultInputSettings",
      "inputKind",
      "inputName",
      "inputSettings",
      "unversionedInputKind",
    ]);
    expect((await client.event("SceneCreated", { sceneName: scene })).eventData).toEqual({
      isGroup: false,
      sceneName: scene,
    });
    const listed = await client.event("SceneListChanged");
    expect(listed.eventIntent).toBe(SCENES);
  });

  test("SetCurrentProgramScene switches the program scene and sends CurrentProgramSceneChanged", async () => {
    const { scene } = await sceneWithText();
    expect(await client.request("SetCurrentProgramScene", { sceneName: scene })).toMatchObject({
      requestStatus: { result: true, code: 100 },
    });
    const changed = await client.event("CurrentProgramSceneChanged", { sceneName: scene });
    expect(changed).toEqual({
      eventType: "CurrentProgramSceneChanged",
      eventIntent: SCENES,
      eventData: { sceneName: scene },
    });
    expect(await client.call("GetCurrentProgramScene")).toEqual({ currentProgramSceneName: scene });
    expect((await client.call("GetSceneList")).currentProgramSceneName).toBe(scene);
  });

  test("SetSceneItemEnabled hides and shows a source, with SceneItemEnableStateChanged", async () => {
    const { scene, itemId } = await sceneWithText();
    const response = await client.request("SetSceneItemEnabled", {
      sceneName: scene,
      sceneItemId: itemId,
      sceneItemEnabled: false,
    });
    expect(response).toEqual({
      requestType: "SetSceneItemEnabled",
      requestId: response.requestId,
      requestStatus: { result: true, code: 100 },
    });
    const changed = await client.event("SceneItemEnableStateChanged", { sceneName: scene });
    expect(changed).toEqual({
      eventType: "SceneItemEnableStateChanged",
      eventIntent: SCENE_ITEMS,
      eventData: { sceneName: scene, sceneItemId: itemId, sceneItemEnabled: false },
    });
    expect(await client.call("GetSceneItemEnabled", { sceneName: scene, sceneItemId: itemId })).toEqual({
      sceneItemEnabled: false,
    });
  });

  test("SetInputSettings sets a text source's text; GetInputSettings reads back what was set", async () => {
    const { source } = await sceneWithText("before");
    await client.call("SetInputSettings", {
      inputName: source,
      inputSettings: { text: "Raid from @someone!" },
    });
    expect(await client.call("GetInputSettings", { inputName: source })).toEqual({
      inputKind: "text_ft2_source_v2",
      inputSettings: { text: "Raid from @someone!" },
    });
    const marks = `Z${"\u0301".repeat(500)}`;
    await client.call("SetInputSettings", { inputName: source, inputSettings: { text: marks } });
    expect((await client.call("GetInputSettings", { inputName: source })).inputSettings).toEqual({
      text: marks,
    });
  });

  test("what does not exist: 600 with OBS's own words; a source that is not a scene: 602", async () => {
    const { scene, source } = await sceneWithText();
    const status = async (type: string, data?: Record<string, unknown>) =>
      (await client.request(type, data)).requestStatus;
    expect(await status("SetCurrentProgramScene", { sceneName: "No such scene" })).toEqual({
      result: false,
      code: 600,
      comment: "No source was found by the name of `No such scene`.",
    });
    expect(await status("SetInputSettings", { inputName: "Nobody", inputSettings: { text: "x" } })).toEqual({
      result: false,
      code: 600,
      comment: "No source was found by the name of `Nobody`.",
    });
    expect(await status("GetSceneItemId", { sceneName: scene, sourceName: "Missing" })).toEqual({
      result: false,
      code: 600,
      comment: "No scene items were found in the specified scene by that name or offset.",
    });
    expect(
      await status("SetSceneItemEnabled", { sceneName: scene, sceneItemId: 99, sceneItemEnabled: true }),
    ).toEqual({
      result: false,
      code: 600,
      comment: `No scene items were found in scene \`${scene}\` with the ID \`99\`.`,
    });
    expect(await status("SetCurrentProgramScene", { sceneName: source })).toEqual({
      result: false,
      code: 602,
      comment: "The specified source is not a scene.",
    });
    expect(await status("GetInputSettings", { inputName: scene })).toEqual({
      result: false,
      code: 602,
      comment: "The specified source is not an input.",
    });
  });

  test("bad requests: unknown type 204, no data 301, a missing field 300, a wrong type 401, a bad media action 400", async () => {
    const { scene, source } = await sceneWithText();
    const status = async (type: string, data?: Record<string, unknown>) =>
      (await client.request(type, data)).requestStatus;
    expect(await status("MakeCoffee")).toEqual({
      result: false,
      code: 204,
      comment: "Your request type is not valid.",
    });
    expect(await status("SetCurrentProgramScene")).toEqual({
      result: false,
      code: 301,
      comment: "Your request data is missing or invalid (non-object)",
    });
    expect(await status("SetSceneItemEnabled", { sceneName: scene, sceneItemId: 1 })).toEqual({
      result: false,
      code: 300,
      comment: "Your request is missing the `sceneItemEnabled` field.",
    });
    expect(
      await status("SetSceneItemEnabled", { sceneName: scene, sceneItemId: 1, sceneItemEnabled: "yes" }),
    ).toEqual({
      result: false,
      code: 401,
      comment: "The field value of `sceneItemEnabled` must be boolean.",
    });
    expect(await status("TriggerMediaInputAction", { inputName: source, mediaAction: "EXPLODE" })).toEqual({
      result: false,
      code: 400,
      comment: "You have specified an invalid media input action.",
    });
    expect(await status("Sleep", { sleepMillis: 10 })).toEqual({ result: false, code: 206 });
    expect(await status("CreateScene", { sceneName: scene })).toEqual({
      result: false,
      code: 601,
      comment: "A source already exists by that scene name.",
    });
  });

  test("a batch runs in order and answers once; haltOnFailure answers only what ran", async () => {
    const { scene, itemId } = await sceneWithText();
    const item = { sceneName: scene, sceneItemId: itemId };
    const started = Date.now();
    const answer = await client.batch([
      { requestType: "SetSceneItemEnabled", requestData: { ...item, sceneItemEnabled: false } },
      { requestType: "Sleep", requestId: "nap", requestData: { sleepMillis: 200 } },
      { requestType: "GetSceneItemEnabled", requestData: item },
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(answer.results).toEqual([
      { requestType: "SetSceneItemEnabled", requestStatus: { result: true, code: 100 } },
      { requestType: "Sleep", requestId: "nap", requestStatus: { result: true, code: 100 } },
      {
        requestType: "GetSceneItemEnabled",
        requestStatus: { result: true, code: 100 },
        responseData: { sceneItemEnabled: false },
      },
    ]);
    const halted = await client.batch(
      [
        { requestType: "SetCurrentProgramScene", requestData: { sceneName: "Nowhere" } },
        { requestType: "SetSceneItemEnabled", requestData: { ...item, sceneItemEnabled: true } },
      ],
      { haltOnFailure: true },
    );
    expect(halted.results).toEqual([
      {
        requestType: "SetCurrentProgramScene",
        requestStatus: { result: false, code: 600, comment: "No source was found by the name of `Nowhere`." },
      },
    ]);
    expect(await client.call("GetSceneItemEnabled", item)).toEqual({ sceneItemEnabled: false });
  });

  test("events only for the subscribed bits; Reidentify changes them", async () => {
    const { scene, itemId } = await sceneWithText();
    const scenesOnly = await connect(SCENES);
    const toggle = async (enabled: boolean) => {
      await client.call("SetSceneItemEnabled", {
        sceneName: scene,
        sceneItemId: itemId,
        sceneItemEnabled: enabled,
      });
      await client.event("SceneItemEnableStateChanged", { sceneName: scene, sceneItemEnabled: enabled });
    };
    await toggle(false);
    await client.call("SetCurrentProgramScene", { sceneName: scene });
    await scenesOnly.event("CurrentProgramSceneChanged", { sceneName: scene });
    expect(scenesOnly.events("SceneItemEnableStateChanged")).toEqual([]);
    expect(scenesOnly.events().every((event) => event.eventIntent === SCENES)).toBe(true);

    const before = scenesOnly.frames.length;
    scenesOnly.send(3, { eventSubscriptions: SCENE_ITEMS });
    await scenesOnly.next((frame) => frame.op === 2, 5_000, before);
    await toggle(true);
    await scenesOnly.event("SceneItemEnableStateChanged", { sceneName: scene, sceneItemEnabled: true });
    const { scene: other } = await sceneWithText();
    await client.call("SetCurrentProgramScene", { sceneName: other });
    await client.event("CurrentProgramSceneChanged", { sceneName: other });
    await toggle(false);
    await scenesOnly.event("SceneItemEnableStateChanged", { sceneName: scene, sceneItemEnabled: false });
    expect(scenesOnly.events("CurrentProgramSceneChanged").map((e) => e.eventData?.sceneName)).toEqual([
      scene,
    ]);
  });

  test("a client subscribed to nothing gets no events at all", async () => {
    const silent = await connect(0);
    const { scene, itemId } = await sceneWithText();
    await client.call("SetSceneItemEnabled", {
      sceneName: scene,
      sceneItemId: itemId,
      sceneItemEnabled: false,
    });
    await client.call("SetCurrentProgramScene", { sceneName: scene });
    await client.event("CurrentProgramSceneChanged", { sceneName: scene });
    await client.event("SceneItemEnableStateChanged", { sceneName: scene });
    await silent.call("GetVersion");
    expect(silent.events()).toEqual([]);
  });
});
