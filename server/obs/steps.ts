/*
 * The OBS steps an action carries out (CONTRACT §6 "Actions"), the only things cuebot asks of OBS
 * for an action, wherever OBS is reached: by this server's connection (`via: server`, obs/step-runner.ts)
 * or by the overlay page in OBS (`via: overlay`, the relay). Both answer the same way, with the same
 * errors, so a run reads the same whichever way it went. Pure: the page's bundle imports it too.
 */

/** One OBS step as it is stored in an action (`seconds` is the runner's: it sends the return itself). */
export type ObsStep =
  | { type: "obs.scene"; scene: string }
  | { type: "obs.source"; scene: string; source: string; visible: boolean; seconds?: number }
  | { type: "obs.text"; source: string; text: string }
  | { type: "obs.media"; source: string; action: "restart" | "stop" };

/** The step types OBS carries out; the relay page accepts these and nothing else. */
export const OBS_STEP_TYPES = ["obs.scene", "obs.source", "obs.text", "obs.media"] as const;
export type ObsStepType = (typeof OBS_STEP_TYPES)[number];

/** What a step came to on OBS: for `obs.source`, whether the source was visible before (for its return). */
export interface ObsStepDone {
  wasVisible?: boolean;
}

/** A step OBS could not carry out; `message` names the cause as the streamer reads it in the run log. */
export class ObsStepFailed extends Error {}

/** The errors a step ends with, worded once for both ways to OBS. */
export const OBS_STEP_ERRORS = {
  noScene: (scene: string) => `OBS has no scene "${scene}".`,
  noSource: (source: string) => `OBS has no source "${source}".`,
  notInScene: (source: string, scene: string) => `OBS has no source "${source}" in scene "${scene}".`,
  notText: (source: string) => `The source "${source}" is not a text source.`,
  notMedia: (source: string) => `The source "${source}" is not a media source.`,
} as const;

/** Carries out OBS steps for an account, however its OBS is reached. */
export interface ObsStepRunner {
  /** Rejects with ObsStepFailed (OBS lacks the scene or source) or ObsNotConnected (no OBS to ask). */
  step(accountId: number, step: ObsStep): Promise<ObsStepDone>;
}

/**
 * How a step reaches OBS: one obs-websocket 5 request at a time (obs-websocket-js's `call`, on the
 * server's connection or on the overlay page's). A refused request rejects with an error carrying
 * OBS's request status `code` (obs-websocket-js's OBSWebSocketError does).
 */
export interface ObsRequester {
  call(type: string, data?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The scene names OBS listed last: a scene among them is not asked about again. */
  scenes(): readonly string[];
}

/** obs-websocket 5's request status codes a step reads (ResourceNotFound, InvalidResourceType). */
const NOT_FOUND = 600;
const NOT_THAT_KIND = 602;

const TEXT_KINDS = /^text_/;
const MEDIA_KINDS = new Set(["ffmpeg_source", "vlc_source"]);

function missing(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === NOT_FOUND || code === NOT_THAT_KIND;
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

async function inputKind(obs: ObsRequester, source: string): Promise<unknown> {
  const answer = await naming(obs.call("GetInputSettings", { inputName: source }), () =>
    OBS_STEP_ERRORS.noSource(source),
  );
  return answer.inputKind;
}

async function showSource(
  obs: ObsRequester,
  step: Extract<ObsStep, { type: "obs.source" }>,
): Promise<ObsStepDone> {
  const { scene, source } = step;
  if (!obs.scenes().includes(scene)) {
    await naming(obs.call("GetSceneItemList", { sceneName: scene }), () => OBS_STEP_ERRORS.noScene(scene));
  }
  const { sceneItemId } = await naming(
    obs.call("GetSceneItemId", { sceneName: scene, sourceName: source }),
    () => OBS_STEP_ERRORS.notInScene(source, scene),
  );
  const before = await obs.call("GetSceneItemEnabled", { sceneName: scene, sceneItemId });
  const wasVisible = before.sceneItemEnabled === true;
  if (wasVisible !== step.visible) {
    await obs.call("SetSceneItemEnabled", { sceneName: scene, sceneItemId, sceneItemEnabled: step.visible });
  }
  return { wasVisible };
}

/** Carries out one OBS step as obs-websocket 5 requests; OBS's "not found" becomes an error naming it. */
export async function carryOutObsStep(obs: ObsRequester, step: ObsStep): Promise<ObsStepDone> {
  switch (step.type) {
    case "obs.scene":
      await naming(obs.call("SetCurrentProgramScene", { sceneName: step.scene }), () =>
        OBS_STEP_ERRORS.noScene(step.scene),
      );
      return {};
    case "obs.source":
      return showSource(obs, step);
    case "obs.text": {
      const kind = await inputKind(obs, step.source);
      if (typeof kind !== "string" || !TEXT_KINDS.test(kind))
        throw new ObsStepFailed(OBS_STEP_ERRORS.notText(step.source));
      await obs.call("SetInputSettings", { inputName: step.source, inputSettings: { text: step.text } });
      return {};
    }
    case "obs.media": {
      const kind = await inputKind(obs, step.source);
      if (typeof kind !== "string" || !MEDIA_KINDS.has(kind))
        throw new ObsStepFailed(OBS_STEP_ERRORS.notMedia(step.source));
      const mediaAction =
        step.action === "restart"
          ? "OBS_WEBSOCKET_MEDIA_INPUT_ACTION_RESTART"
          : "OBS_WEBSOCKET_MEDIA_INPUT_ACTION_STOP";
      await obs.call("TriggerMediaInputAction", { inputName: step.source, mediaAction });
      return {};
    }
  }
}

/** The longest name or text a step carries to OBS (a relayed step longer than this is refused). */
const LONGEST_FIELD = 10_000;

const isName = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && value.length <= LONGEST_FIELD;

/** The step types by name (a Map: "constructor" is no step). */
const STEP_TYPES: ReadonlySet<string> = new Set(OBS_STEP_TYPES);

/**
 * An OBS step read from outside (the relay's messages), field by field: one of the four, with the
 * fields its type has, or null. What OBS is asked is built from the step alone, never passed through.
 */
export function parseObsStep(value: unknown): ObsStep | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.type !== "string" || !STEP_TYPES.has(v.type)) return null;
  switch (v.type as ObsStepType) {
    case "obs.scene":
      return isName(v.scene) ? { type: "obs.scene", scene: v.scene } : null;
    case "obs.source": {
      if (!isName(v.scene) || !isName(v.source) || typeof v.visible !== "boolean") return null;
      const step = { type: "obs.source" as const, scene: v.scene, source: v.source, visible: v.visible };
      if (v.seconds === undefined) return step;
      return typeof v.seconds === "number" && Number.isFinite(v.seconds) && v.seconds >= 0
        ? { ...step, seconds: v.seconds }
        : null;
    }
    case "obs.text":
      return isName(v.source) && typeof v.text === "string" && v.text.length <= LONGEST_FIELD
        ? { type: "obs.text", source: v.source, text: v.text }
        : null;
    case "obs.media":
      return isName(v.source) && (v.action === "restart" || v.action === "stop")
        ? { type: "obs.media", source: v.source, action: v.action }
        : null;
  }
}

/** OBS's scene names as its Scenes dock lists them (top first), and every input's name (GetSceneList, GetInputList). */
export function listedNames(
  sceneList: Record<string, unknown>,
  inputList: Record<string, unknown>,
): { scenes: string[]; sources: string[] } {
  // A copy sorted, not toSorted: the overlay page runs in OBS's older Chromium too.
  const scenes = [...(sceneList.scenes as { sceneIndex: number; sceneName: string }[])]
    .sort((a, b) => b.sceneIndex - a.sceneIndex)
    .map((scene) => scene.sceneName);
  const sources = (inputList.inputs as { inputName: string }[]).map((input) => input.inputName);
  return { scenes, sources };
}

/** OBS events after which the scene and input names are read again (the server's connection and the page's). */
export const OBS_LIST_EVENTS = [
  "SceneListChanged",
  "SceneCreated",
  "SceneRemoved",
  "SceneNameChanged",
  "InputCreated",
  "InputRemoved",
  "InputNameChanged",
  "CurrentSceneCollectionChanged",
] as const;
