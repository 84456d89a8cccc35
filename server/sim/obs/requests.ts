/**
 * The requests the simulated OBS answers, each as obs-websocket 5.1.0's handler does (checks in the
 * same order, the same status codes and comments, the same response fields): what cuebot's actions need
 * (reference/obs.md §4), CreateScene and CreateInput so a test builds the same scene on the simulator and
 * on a real OBS, and Sleep for batches. Any other request type is 204, as OBS answers an unknown one.
 */
import { INPUT_KINDS, isInputKind, sceneItemTransform } from "./kinds.ts";
import { OBS_STUDIO_VERSION, OBS_WEBSOCKET_VERSION, RPC_VERSION, Status } from "./protocol.ts";
import { RequestData, RequestFailure } from "./request-data.ts";
import type { ObsState, SimScene } from "./state.ts";

type Response = Record<string, unknown> | undefined;
type Handler = (request: RequestData) => Response | Promise<Response>;

const MEDIA_ACTIONS = {
  OBS_WEBSOCKET_MEDIA_INPUT_ACTION_PLAY: "play",
  OBS_WEBSOCKET_MEDIA_INPUT_ACTION_PAUSE: "pause",
  OBS_WEBSOCKET_MEDIA_INPUT_ACTION_STOP: "stop",
  OBS_WEBSOCKET_MEDIA_INPUT_ACTION_RESTART: "restart",
  OBS_WEBSOCKET_MEDIA_INPUT_ACTION_NEXT: "next",
  OBS_WEBSOCKET_MEDIA_INPUT_ACTION_PREVIOUS: "previous",
} as const;

/** Frames per second of the simulated video, for Sleep's `sleepFrames`. */
const FPS = 30;

function sceneItems(state: ObsState, scene: SimScene): Array<Record<string, unknown>> {
  return scene.items.map((item, index) => {
    const input = state.input(item.source);
    return {
      inputKind: input?.kind ?? null,
      isGroup: input ? null : false,
      sceneItemBlendMode: "OBS_BLEND_NORMAL",
      sceneItemEnabled: item.enabled,
      sceneItemId: item.id,
      sceneItemIndex: index,
      sceneItemLocked: item.locked,
      sceneItemTransform: sceneItemTransform(input?.kind ?? null),
      sourceName: item.source,
      sourceType: input ? "OBS_SOURCE_TYPE_INPUT" : "OBS_SOURCE_TYPE_SCENE",
    };
  });
}

/** GetSceneItemId's search: bottom first; offset n skips n matches, −1 takes the last. */
function findItemId(scene: SimScene, sourceName: string, offset: number): number | null {
  const matches = scene.items.filter((item) => item.source === sourceName);
  const item = offset === -1 ? matches.at(-1) : matches[offset];
  return sourceName === "" || !item ? null : item.id;
}

const HANDLERS: Record<string, Handler> = {
  GetVersion: () => ({
    availableRequests: Object.keys(HANDLERS),
    obsVersion: OBS_STUDIO_VERSION,
    obsWebSocketVersion: OBS_WEBSOCKET_VERSION,
    platform: "debian",
    platformDescription: "Debian GNU/Linux 12 (bookworm)",
    rpcVersion: RPC_VERSION,
    supportedImageFormats: ["bmp", "cur", "ico", "jpeg", "jpg", "pbm", "pgm", "png", "ppm", "xbm", "xpm"],
  }),

  GetSceneList: ({ state }) => ({
    currentPreviewSceneName: null,
    currentProgramSceneName: state.programScene || null,
    scenes: state.sceneList(),
  }),

  GetCurrentProgramScene: ({ state }) => ({ currentProgramSceneName: state.programScene }),

  SetCurrentProgramScene: (request) => {
    request.state.setProgramScene(request.scene("sceneName"));
    return undefined;
  },

  CreateScene: (request) => {
    const name = request.string("sceneName");
    if (request.state.hasSource(name)) {
      throw new RequestFailure(Status.ResourceAlreadyExists, "A source already exists by that scene name.");
    }
    request.state.createScene(name);
    return undefined;
  },

  GetInputList: (request) => {
    const kind = request.has("inputKind") ? request.optionalString("inputKind") : "";
    const inputs = [...request.state.inputs.values()].filter((input) => kind === "" || input.kind === kind);
    return {
      inputs: inputs.map((input) => ({
        inputKind: input.kind,
        inputName: input.name,
        unversionedInputKind: INPUT_KINDS[input.kind].unversioned,
      })),
    };
  },

  CreateInput: (request) => {
    const scene = request.scene("sceneName");
    const name = request.string("inputName");
    const kind = request.string("inputKind");
    if (request.state.hasSource(name)) {
      throw new RequestFailure(Status.ResourceAlreadyExists, "A source already exists by that input name.");
    }
    if (!isInputKind(kind)) {
      throw new RequestFailure(
        Status.InvalidInputKind,
        "Your specified input kind is not supported by OBS. Check that your specified kind is properly versioned and that any necessary plugins are loaded.",
      );
    }
    const settings = request.has("inputSettings") ? request.optionalObject("inputSettings", true) : {};
    const enabled = request.has("sceneItemEnabled") ? request.optionalBoolean("sceneItemEnabled") : true;
    return { sceneItemId: request.state.createInput(scene, name, kind, settings, enabled) };
  },

  GetInputSettings: (request) => {
    const input = request.input("inputName");
    return { inputKind: input.kind, inputSettings: input.settings };
  },

  SetInputSettings: (request) => {
    const input = request.input("inputName");
    const settings = request.object("inputSettings", true);
    const overlay = request.has("overlay") ? request.optionalBoolean("overlay") : true;
    request.state.setInputSettings(input, settings, overlay);
    return undefined;
  },

  GetSceneItemList: (request) => ({ sceneItems: sceneItems(request.state, request.scene("sceneName")) }),

  GetSceneItemId: (request) => {
    const scene = request.scene("sceneName");
    const sourceName = request.string("sourceName");
    const offset = request.has("searchOffset") ? Math.trunc(request.optionalNumber("searchOffset", -1)) : 0;
    const id = findItemId(scene, sourceName, offset);
    if (id === null) {
      throw new RequestFailure(
        Status.ResourceNotFound,
        "No scene items were found in the specified scene by that name or offset.",
      );
    }
    return { sceneItemId: id };
  },

  GetSceneItemEnabled: (request) => ({
    sceneItemEnabled: request.sceneItem("sceneName", "sceneItemId").item.enabled,
  }),

  SetSceneItemEnabled: (request) => {
    const { scene, item } = request.sceneItem("sceneName", "sceneItemId");
    request.state.setItemEnabled(scene, item, request.boolean("sceneItemEnabled"));
    return undefined;
  },

  GetMediaInputStatus: (request) => request.state.mediaStatus(request.input("inputName")),

  TriggerMediaInputAction: (request) => {
    const input = request.input("inputName");
    const action = MEDIA_ACTIONS[request.string("mediaAction") as keyof typeof MEDIA_ACTIONS];
    if (!action) {
      throw new RequestFailure(
        Status.InvalidRequestField,
        "You have specified an invalid media input action.",
      );
    }
    request.state.mediaAction(input, action);
    return undefined;
  },

  Sleep: async (request) => {
    if (request.executionType === "realtime") await Bun.sleep(request.number("sleepMillis", 0, 50_000));
    else if (request.executionType === "frame")
      await Bun.sleep((request.number("sleepFrames", 0, 10_000) * 1000) / FPS);
    else throw new RequestFailure(Status.UnsupportedRequestBatchExecutionType, "");
    return undefined;
  },
};

export interface RequestResult {
  code: number;
  comment: string;
  responseData: Record<string, unknown> | undefined;
}

/** Runs one request as RequestHandler::ProcessRequest does. */
export async function processRequest(
  state: ObsState,
  requestType: string,
  requestData: unknown,
  executionType: RequestData["executionType"],
): Promise<RequestResult> {
  const failed = (code: number, comment: string) => ({ code, comment, responseData: undefined });
  if (
    requestData !== undefined &&
    requestData !== null &&
    (typeof requestData !== "object" || Array.isArray(requestData))
  )
    return failed(Status.InvalidRequestFieldType, "Your request data is not an object.");
  if (requestType === "")
    return failed(Status.MissingRequestType, "Your request's `requestType` may not be empty.");
  const handler = Object.hasOwn(HANDLERS, requestType) ? HANDLERS[requestType] : undefined;
  if (!handler) return failed(Status.UnknownRequestType, "Your request type is not valid.");
  try {
    const responseData = await handler(new RequestData(requestData, state, executionType));
    return { code: Status.Success, comment: "", responseData };
  } catch (error) {
    if (error instanceof RequestFailure) return failed(error.code, error.comment);
    throw error;
  }
}
