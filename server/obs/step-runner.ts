import { OBSWebSocketError } from "obs-websocket-js/json";
import type { ObsConnection } from "./connection.ts";
import { OBS_STEP_ERRORS, type ObsStep, type ObsStepDone, ObsStepFailed } from "./steps.ts";

/*
 * The OBS steps carried out by this server's own connection (`via: server`), as obs-websocket 5
 * requests. OBS's "not found" answers become errors naming the scene or source (obs/steps.ts).
 */

/** obs-websocket 5's request status codes this runner reads (ResourceNotFound, InvalidResourceType). */
const NOT_FOUND = 600;
const NOT_THAT_KIND = 602;

const TEXT_KINDS = /^text_/;
const MEDIA_KINDS = new Set(["ffmpeg_source", "vlc_source"]);

function missing(error: unknown): boolean {
  return error instanceof OBSWebSocketError && (error.code === NOT_FOUND || error.code === NOT_THAT_KIND);
}

/** Runs `work`; OBS's "no such thing" becomes ObsStepFailed with `message`, anything else goes on. */
async function naming<T>(work: Promise<T>, message: () => string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (missing(error)) throw new ObsStepFailed(message());
    throw error;
  }
}

async function inputKind(connection: ObsConnection, source: string): Promise<string> {
  const answer = await naming(connection.call("GetInputSettings", { inputName: source }), () =>
    OBS_STEP_ERRORS.noSource(source),
  );
  return answer.inputKind;
}

async function showSource(
  connection: ObsConnection,
  step: Extract<ObsStep, { type: "obs.source" }>,
): Promise<ObsStepDone> {
  const { scene, source } = step;
  if (!connection.status().scenes.includes(scene)) {
    await naming(connection.call("GetSceneItemList", { sceneName: scene }), () =>
      OBS_STEP_ERRORS.noScene(scene),
    );
  }
  const { sceneItemId } = await naming(
    connection.call("GetSceneItemId", { sceneName: scene, sourceName: source }),
    () => OBS_STEP_ERRORS.notInScene(source, scene),
  );
  const before = await connection.call("GetSceneItemEnabled", { sceneName: scene, sceneItemId });
  if (before.sceneItemEnabled !== step.visible) {
    await connection.call("SetSceneItemEnabled", {
      sceneName: scene,
      sceneItemId,
      sceneItemEnabled: step.visible,
    });
  }
  return { wasVisible: before.sceneItemEnabled };
}

/** Carries out one OBS step on a connected OBS. */
export async function runObsStep(connection: ObsConnection, step: ObsStep): Promise<ObsStepDone> {
  switch (step.type) {
    case "obs.scene":
      await naming(connection.call("SetCurrentProgramScene", { sceneName: step.scene }), () =>
        OBS_STEP_ERRORS.noScene(step.scene),
      );
      return {};
    case "obs.source":
      return showSource(connection, step);
    case "obs.text": {
      if (!TEXT_KINDS.test(await inputKind(connection, step.source)))
        throw new ObsStepFailed(OBS_STEP_ERRORS.notText(step.source));
      await connection.call("SetInputSettings", {
        inputName: step.source,
        inputSettings: { text: step.text },
      });
      return {};
    }
    case "obs.media": {
      if (!MEDIA_KINDS.has(await inputKind(connection, step.source)))
        throw new ObsStepFailed(OBS_STEP_ERRORS.notMedia(step.source));
      const mediaAction =
        step.action === "restart"
          ? "OBS_WEBSOCKET_MEDIA_INPUT_ACTION_RESTART"
          : "OBS_WEBSOCKET_MEDIA_INPUT_ACTION_STOP";
      await connection.call("TriggerMediaInputAction", { inputName: step.source, mediaAction });
      return {};
    }
  }
}
