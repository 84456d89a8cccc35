import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OBSWebSocket } from "obs-websocket-js/json";
import { ObsConnection } from "../../../server/obs/connection.ts";
import { runObsStep } from "../../../server/obs/step-runner.ts";
import { OBS_STEP_ERRORS, type ObsStep, ObsStepFailed } from "../../../server/obs/steps.ts";
import { OBS_TARGETS, type RunningObs } from "../sim/obs/targets.ts";

/**
 * An action's OBS steps carried out on this server's connection (obs/step-runner.ts), against the
 * simulator and a real OBS 29.0.2, read back over a second obs-websocket client: the program scene,
 * a source shown or hidden (and whether it was visible before), a text source's text, a media
 * source restarted and stopped; and each step OBS cannot carry out failing with the error that names
 * the scene or source (OBS_STEP_ERRORS), never OBS's own wording.
 */

/** Ten seconds of silence as a WAV file (8 kHz, 8-bit, mono): a media source with something to play. */
function silence(path: string): string {
  const samples = 80_000;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + samples, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8_000, 24);
  header.writeUInt32LE(8_000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write("data", 36);
  header.writeUInt32LE(samples, 40);
  writeFileSync(path, Buffer.concat([header, Buffer.alloc(samples, 128)]));
  return path;
}

const folder = mkdtempSync(join(tmpdir(), "cuebot-steps-"));
const clip = silence(join(folder, "silence.wav"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.each(OBS_TARGETS)("$name: OBS steps", (target) => {
  let obs: RunningObs;
  let connection: ObsConnection;
  const reader = new OBSWebSocket();
  let counter = 0;
  const unique = (what: string) => `${what} ${++counter}`;
  const run = (step: ObsStep) => runObsStep(connection, step);

  /** A scene holding a text source and a media source, as a streamer builds it. */
  async function scene(): Promise<{ scene: string; text: string; media: string }> {
    const names = { scene: unique("Scene"), text: unique("Text"), media: unique("Media") };
    await reader.call("CreateScene", { sceneName: names.scene });
    await reader.call("CreateInput", {
      sceneName: names.scene,
      inputName: names.text,
      inputKind: "text_ft2_source_v2",
      inputSettings: { text: "before" },
    });
    await reader.call("CreateInput", {
      sceneName: names.scene,
      inputName: names.media,
      inputKind: "ffmpeg_source",
      inputSettings: { local_file: clip },
    });
    return names;
  }

  async function failure(step: ObsStep): Promise<string> {
    const error = await run(step).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ObsStepFailed);
    return (error as Error).message;
  }

  beforeAll(async () => {
    obs = await target.start();
    await reader.connect(obs.url, obs.password);
    connection = new ObsConnection(
      { url: obs.url, password: obs.password },
      { now: () => Date.now(), changed: () => {} },
    );
    connection.start();
    const started = Date.now();
    while (connection.status().state !== "connected" && Date.now() - started < 10_000) await Bun.sleep(50);
  }, 40_000);
  afterAll(async () => {
    connection.close();
    await reader.disconnect();
    await obs.stop();
  });

  test("obs.scene: the program scene is the one named", async () => {
    const { scene: name } = await scene();
    expect(await run({ type: "obs.scene", scene: name })).toEqual({});
    expect((await reader.call("GetCurrentProgramScene")).currentProgramSceneName).toBe(name);
  });

  test("obs.scene: a scene OBS lacks, or the name of a source that is no scene, names it", async () => {
    expect(await failure({ type: "obs.scene", scene: "Nowhere" })).toBe(OBS_STEP_ERRORS.noScene("Nowhere"));
    const { text } = await scene();
    expect(await failure({ type: "obs.scene", scene: text })).toBe(OBS_STEP_ERRORS.noScene(text));
  });

  test("obs.source: hidden and shown, answering whether it was visible before", async () => {
    const { scene: name, text } = await scene();
    const item = {
      sceneName: name,
      sceneItemId: (await reader.call("GetSceneItemId", { sceneName: name, sourceName: text })).sceneItemId,
    };
    const enabled = async () => (await reader.call("GetSceneItemEnabled", item)).sceneItemEnabled;
    const step = { type: "obs.source", scene: name, source: text } as const;
    expect(await run({ ...step, visible: false })).toEqual({ wasVisible: true });
    expect(await enabled()).toBe(false);
    expect(await run({ ...step, visible: false })).toEqual({ wasVisible: false });
    expect(await enabled()).toBe(false);
    expect(await run({ ...step, visible: true })).toEqual({ wasVisible: false });
    expect(await enabled()).toBe(true);
  });

  test("obs.source: a scene OBS lacks names the scene; a source not in the scene names both", async () => {
    const first = await scene();
    const other = await scene();
    const step = { type: "obs.source", visible: true } as const;
    expect(await failure({ ...step, scene: "Nowhere", source: first.text })).toBe(
      OBS_STEP_ERRORS.noScene("Nowhere"),
    );
    expect(await failure({ ...step, scene: first.scene, source: other.text })).toBe(
      OBS_STEP_ERRORS.notInScene(other.text, first.scene),
    );
    expect(await failure({ ...step, scene: first.scene, source: "Nothing" })).toBe(
      OBS_STEP_ERRORS.notInScene("Nothing", first.scene),
    );
    expect(await failure({ ...step, scene: first.text, source: first.media })).toBe(
      OBS_STEP_ERRORS.noScene(first.text),
    );
  });

  test("obs.source: a scene made after cuebot read OBS's lists is found", async () => {
    const { scene: name, media } = await scene();
    expect(await run({ type: "obs.source", scene: name, source: media, visible: false })).toEqual({
      wasVisible: true,
    });
  });

  test("obs.text: the text source reads back the new text, odd Unicode included", async () => {
    const { text } = await scene();
    const written = `Raid from Z̷̢a̸l̵g̶o ${"\u0301".repeat(500)} 🎉 — «ok»`;
    expect(await run({ type: "obs.text", source: text, text: written })).toEqual({});
    const settings = (await reader.call("GetInputSettings", { inputName: text })).inputSettings;
    expect(settings.text).toBe(written);
  });

  test("obs.text: a source OBS lacks, a scene, or a media source is refused, naming it", async () => {
    const { scene: name, media } = await scene();
    expect(await failure({ type: "obs.text", source: "Nothing", text: "x" })).toBe(
      OBS_STEP_ERRORS.noSource("Nothing"),
    );
    expect(await failure({ type: "obs.text", source: name, text: "x" })).toBe(OBS_STEP_ERRORS.noSource(name));
    expect(await failure({ type: "obs.text", source: media, text: "x" })).toBe(
      OBS_STEP_ERRORS.notText(media),
    );
  });

  test("obs.media: restart plays the media source, stop stops it", async () => {
    const { media } = await scene();
    const state = async () => (await reader.call("GetMediaInputStatus", { inputName: media })).mediaState;
    expect(await run({ type: "obs.media", source: media, action: "restart" })).toEqual({});
    expect(await state()).toBe("OBS_MEDIA_STATE_PLAYING");
    expect(await run({ type: "obs.media", source: media, action: "stop" })).toEqual({});
    expect(await state()).toBe("OBS_MEDIA_STATE_STOPPED");
  });

  test("obs.media: a source OBS lacks, a scene, or a text source is refused, naming it", async () => {
    const { scene: name, text } = await scene();
    const step = { type: "obs.media", action: "restart" } as const;
    expect(await failure({ ...step, source: "Nothing" })).toBe(OBS_STEP_ERRORS.noSource("Nothing"));
    expect(await failure({ ...step, source: name })).toBe(OBS_STEP_ERRORS.noSource(name));
    expect(await failure({ ...step, source: text })).toBe(OBS_STEP_ERRORS.notMedia(text));
  });
});
