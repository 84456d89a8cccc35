import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ObsEvent, ObsSocket } from "../../../helpers/obs-socket.ts";
import { OBS_TARGETS, type RunningObs } from "./targets.ts";

/**
 * What a real OBS 29.0.2 does around the requests, beyond their answers, held the same on the simulator:
 * which events a change sends (OBS's window selects a new item and says so), the
 * program scene changing at once while CurrentProgramSceneChanged waits for the 300 ms Fade, nothing at
 * all for a change to what already is, and media actions on a media source without a file.
 */

const ALL = 2047;
const TEXT_DEFAULTS = {
  antialiasing: true,
  color1: 4294967295,
  color2: 4294967295,
  drop_shadow: false,
  font: { face: "Sans Serif", flags: 0, size: 256, style: "" },
  log_lines: 6,
  outline: false,
  word_wrap: false,
};

/**
 * Event types and intents, sorted: OBS broadcasts each event from a thread pool, so events sent together
 * (SceneCreated and SceneListChanged) come in either order.
 */
const brief = (events: ObsEvent[]) => events.map((event) => `${event.eventType} ${event.eventIntent}`).sort();

describe.each(OBS_TARGETS)("$name: side effects", (target) => {
  let obs: RunningObs;
  let client: ObsSocket;
  let counter = 0;
  const unique = (what: string) => `${what} ${++counter} ${target.name}`;

  /** Waits until no frame has come for 200 ms: OBS sends events from its threads, some after the response. */
  const settle = async () => {
    for (;;) {
      const seen = client.frames.length;
      await Bun.sleep(200);
      if (client.frames.length === seen) return;
    }
  };

  /** The events a step causes: those of earlier steps drained first, stragglers waited for. */
  const eventsOf = async (step: () => Promise<unknown>) => {
    await settle();
    const from = client.frames.length;
    await step();
    await settle();
    return client.frames
      .slice(from)
      .filter((frame) => frame.op === 5)
      .map((frame) => frame.d as unknown as ObsEvent);
  };

  beforeAll(async () => {
    obs = await target.start();
    client = await ObsSocket.open(obs.url);
    await client.identify(obs.password, ALL);
  });
  afterAll(async () => {
    client.close();
    await obs.stop();
  });

  test("CreateScene: SceneCreated and SceneListChanged (the new scene at index 0, the bottom of the dock)", async () => {
    const scene = unique("Scene");
    const events = await eventsOf(() => client.call("CreateScene", { sceneName: scene }));
    expect(brief(events)).toEqual(["SceneCreated 4", "SceneListChanged 4"]);
    const listed = events.find((event) => event.eventType === "SceneListChanged")!;
    expect((listed.eventData!.scenes as unknown[])[0]).toEqual({ sceneIndex: 0, sceneName: scene });
  });

  test("CreateInput: InputCreated with OBS's defaults, SceneItemCreated, SceneItemSelected", async () => {
    const scene = unique("Scene");
    await client.call("CreateScene", { sceneName: scene });
    const source = unique("Text");
    const events = await eventsOf(() =>
      client.call("CreateInput", { sceneName: scene, inputName: source, inputKind: "text_ft2_source_v2" }),
    );
    expect(brief(events)).toEqual(["InputCreated 8", "SceneItemCreated 128", "SceneItemSelected 128"]);
    const byType = (type: string) => events.find((event) => event.eventType === type)?.eventData;
    expect(["InputCreated", "SceneItemCreated", "SceneItemSelected"].map(byType)).toEqual([
      {
        defaultInputSettings: TEXT_DEFAULTS,
        inputKind: "text_ft2_source_v2",
        inputName: source,
        inputSettings: {},
        unversionedInputKind: "text_ft2_source",
      },
      { sceneItemId: 1, sceneItemIndex: 0, sceneName: scene, sourceName: source },
      { sceneItemId: 1, sceneName: scene },
    ]);
  });

  test("SetCurrentProgramScene: the program scene at once, CurrentProgramSceneChanged after the Fade; again: nothing", async () => {
    const scene = unique("Scene");
    await client.call("CreateScene", { sceneName: scene });
    const asked = Date.now();
    const events = await eventsOf(async () => {
      const from = client.frames.length;
      await client.call("SetCurrentProgramScene", { sceneName: scene });
      expect(await client.call("GetCurrentProgramScene")).toEqual({ currentProgramSceneName: scene });
      await client.next((frame) => frame.d.eventType === "SceneTransitionEnded", 5_000, from);
    });
    const changed = await client.event("CurrentProgramSceneChanged", { sceneName: scene });
    expect(Date.now() - asked).toBeGreaterThanOrEqual(250);
    expect(events[0]!.eventType).toBe("SceneTransitionStarted");
    expect(brief(events)).toEqual([
      "CurrentProgramSceneChanged 4",
      "SceneTransitionEnded 16",
      "SceneTransitionStarted 16",
      "SceneTransitionVideoEnded 16",
    ]);
    expect(events[0]!.eventData).toEqual({ transitionName: "Fade" });
    expect(changed.eventData).toEqual({ sceneName: scene });
    expect(await eventsOf(() => client.call("SetCurrentProgramScene", { sceneName: scene }))).toEqual([]);
  });

  test("SetSceneItemEnabled to what it already is: success and no event", async () => {
    const scene = unique("Scene");
    await client.call("CreateScene", { sceneName: scene });
    const source = unique("Text");
    await client.call("CreateInput", {
      sceneName: scene,
      inputName: source,
      inputKind: "text_ft2_source_v2",
    });
    const item = { sceneName: scene, sceneItemId: 1 };
    expect(
      await eventsOf(() => client.call("SetSceneItemEnabled", { ...item, sceneItemEnabled: true })),
    ).toEqual([]);
  });

  test("a media source without a file: NONE, then PLAYING at 0 of 0 on restart, with MediaInputActionTriggered", async () => {
    const scene = unique("Scene");
    await client.call("CreateScene", { sceneName: scene });
    const media = unique("Media");
    const text = unique("Text");
    await client.call("CreateInput", { sceneName: scene, inputName: media, inputKind: "ffmpeg_source" });
    await client.call("CreateInput", { sceneName: scene, inputName: text, inputKind: "text_ft2_source_v2" });
    const none = { mediaCursor: null, mediaDuration: null, mediaState: "OBS_MEDIA_STATE_NONE" };
    expect(await client.call("GetMediaInputStatus", { inputName: media })).toEqual(none);
    const restart = (inputName: string) =>
      client.call("TriggerMediaInputAction", {
        inputName,
        mediaAction: "OBS_WEBSOCKET_MEDIA_INPUT_ACTION_RESTART",
      });
    const events = await eventsOf(() => restart(media));
    expect(events).toEqual([
      {
        eventData: { inputName: media, mediaAction: "OBS_WEBSOCKET_MEDIA_INPUT_ACTION_RESTART" },
        eventIntent: 256,
        eventType: "MediaInputActionTriggered",
      },
    ]);
    expect(await client.call("GetMediaInputStatus", { inputName: media })).toEqual({
      mediaCursor: 0,
      mediaDuration: 0,
      mediaState: "OBS_MEDIA_STATE_PLAYING",
    });
    expect(await eventsOf(() => restart(text))).toEqual([]);
    expect(await client.call("GetMediaInputStatus", { inputName: text })).toEqual(none);
  });

  test("a colour source's item is its default 1920×1080; its settings are only what was set", async () => {
    const scene = unique("Scene");
    await client.call("CreateScene", { sceneName: scene });
    const color = unique("Colour");
    await client.call("CreateInput", { sceneName: scene, inputName: color, inputKind: "color_source_v3" });
    const [item] = (await client.call("GetSceneItemList", { sceneName: scene })).sceneItems as Array<{
      sceneItemTransform: Record<string, unknown>;
    }>;
    expect(item!.sceneItemTransform).toMatchObject({
      sourceWidth: 1920,
      sourceHeight: 1080,
      width: 1920,
      height: 1080,
    });
    expect(await client.call("GetInputSettings", { inputName: color })).toEqual({
      inputKind: "color_source_v3",
      inputSettings: {},
    });
  });
});
