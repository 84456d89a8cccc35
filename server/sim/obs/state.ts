/**
 * What the simulated OBS holds: scenes (in the order of OBS's Scenes dock), inputs with their settings,
 * the scene items that place inputs in scenes, the program scene and media playback. Every change says
 * what happened through `emit`, with the event's name, subscription bit and data as obs-websocket 5.1.0
 * sends them (reference/obs.md §5); the server passes them on to the clients subscribed to that bit.
 * Names are one namespace, as in OBS: a scene and an input cannot share one.
 */
import type { Clock } from "../../core/clock.ts";
import { INPUT_KINDS, type InputKind } from "./kinds.ts";
import { Subscription } from "./protocol.ts";

export interface SimSceneItem {
  id: number;
  source: string;
  enabled: boolean;
  locked: boolean;
}

export interface SimScene {
  name: string;
  /** Bottom first, as OBS enumerates them (sceneItemIndex order). */
  items: SimSceneItem[];
  nextItemId: number;
}

export type MediaState = "OBS_MEDIA_STATE_NONE" | "OBS_MEDIA_STATE_PLAYING" | "OBS_MEDIA_STATE_STOPPED";

export type MediaAction = "play" | "pause" | "stop" | "restart" | "next" | "previous";

/** OBS's default transition: Fade, 300 ms. */
const TRANSITION_MS = 300;

export interface SimMedia {
  state: MediaState;
  /** Length of the clip in ms; 0 without a file (OBS then plays nothing, at cursor 0, forever). */
  durationMs: number;
  startedAt: number;
}

export interface SimInput {
  name: string;
  kind: InputKind;
  /** The values set by the user only, as GetInputSettings answers (no defaults). */
  settings: Record<string, unknown>;
  /** Playback of a media source that has a file; null otherwise. */
  media: SimMedia | null;
}

export type EventSink = (intent: number, eventType: string, eventData?: Record<string, unknown>) => void;

export class ObsState {
  /** Top of the Scenes dock first. */
  readonly scenes: SimScene[] = [];
  readonly inputs = new Map<string, SimInput>();
  programScene = "";
  /** Set by the server; a state alone emits into the void. */
  emit: EventSink = () => {};

  constructor(private readonly clock: Clock) {}

  hasSource(name: string): boolean {
    return this.inputs.has(name) || this.scene(name) !== undefined;
  }

  scene(name: string): SimScene | undefined {
    return this.scenes.find((scene) => scene.name === name);
  }

  input(name: string): SimInput | undefined {
    return this.inputs.get(name);
  }

  /** GetSceneList's `scenes`: sceneIndex 0 is the bottom of the dock, listed first. */
  sceneList(): Array<{ sceneIndex: number; sceneName: string }> {
    const count = this.scenes.length;
    return this.scenes.map((scene, i) => ({ sceneIndex: count - i - 1, sceneName: scene.name })).reverse();
  }

  /** A new scene goes to the bottom of the dock; OBS reports the new list before the scene itself. */
  createScene(name: string): void {
    this.scenes.push({ name, items: [], nextItemId: 1 });
    this.emit(Subscription.Scenes, "SceneListChanged", { scenes: this.sceneList() });
    this.emit(Subscription.Scenes, "SceneCreated", { isGroup: false, sceneName: name });
    if (this.programScene === "") this.programScene = name;
  }

  /** Creates an input and its item at the top of `scene`; returns the item's id. */
  createInput(
    scene: SimScene,
    name: string,
    kind: InputKind,
    settings: Record<string, unknown>,
    enabled: boolean,
  ): number {
    const media: SimMedia | null =
      kind === "ffmpeg_source" ? { state: "OBS_MEDIA_STATE_NONE", durationMs: 0, startedAt: 0 } : null;
    const input: SimInput = { name, kind, settings: { ...settings }, media };
    this.inputs.set(name, input);
    this.emit(Subscription.Inputs, "InputCreated", {
      defaultInputSettings: INPUT_KINDS[kind].defaults,
      inputKind: kind,
      inputName: name,
      inputSettings: input.settings,
      unversionedInputKind: INPUT_KINDS[kind].unversioned,
    });
    const item: SimSceneItem = { id: scene.nextItemId++, source: name, enabled, locked: false };
    scene.items.push(item);
    this.emit(Subscription.SceneItems, "SceneItemCreated", {
      sceneItemId: item.id,
      sceneItemIndex: scene.items.length - 1,
      sceneName: scene.name,
      sourceName: name,
    });
    // OBS's window selects the new item, and says so.
    this.emit(Subscription.SceneItems, "SceneItemSelected", { sceneItemId: item.id, sceneName: scene.name });
    return item.id;
  }

  /**
   * The program scene changes at once (GetCurrentProgramScene says so right after the response), but
   * CurrentProgramSceneChanged comes when OBS's default Fade transition has ended, 300 ms later, as on
   * OBS 29. The scene already on program: nothing happens.
   */
  setProgramScene(scene: SimScene): void {
    if (scene.name === this.programScene) return;
    this.programScene = scene.name;
    const transition = { transitionName: "Fade" };
    this.emit(Subscription.Transitions, "SceneTransitionStarted", transition);
    setTimeout(() => {
      this.emit(Subscription.Transitions, "SceneTransitionVideoEnded", transition);
      this.emit(Subscription.Scenes, "CurrentProgramSceneChanged", { sceneName: scene.name });
      this.emit(Subscription.Transitions, "SceneTransitionEnded", transition);
    }, TRANSITION_MS);
  }

  /** As obs_sceneitem_set_visible: no event when nothing changes. */
  setItemEnabled(scene: SimScene, item: SimSceneItem, enabled: boolean): void {
    if (item.enabled === enabled) return;
    item.enabled = enabled;
    this.emit(Subscription.SceneItems, "SceneItemEnableStateChanged", {
      sceneItemEnabled: enabled,
      sceneItemId: item.id,
      sceneName: scene.name,
    });
  }

  /** overlay true merges into the user's values; false replaces them. */
  setInputSettings(input: SimInput, settings: Record<string, unknown>, overlay: boolean): void {
    input.settings = overlay ? { ...input.settings, ...settings } : { ...settings };
  }

  /**
   * Restart (and play, when not playing) start the clip from the beginning; stop stops it. A media source
   * says so with MediaInputActionTriggered; other inputs ignore media actions silently.
   */
  mediaAction(input: SimInput, action: MediaAction): void {
    const media = input.media;
    if (!media) return;
    this.emit(Subscription.MediaInputs, "MediaInputActionTriggered", {
      inputName: input.name,
      mediaAction: `OBS_WEBSOCKET_MEDIA_INPUT_ACTION_${action.toUpperCase()}`,
    });
    if (action === "stop") media.state = "OBS_MEDIA_STATE_STOPPED";
    if (action === "restart" || (action === "play" && media.state !== "OBS_MEDIA_STATE_PLAYING")) {
      media.state = "OBS_MEDIA_STATE_PLAYING";
      media.startedAt = this.clock.now();
    }
  }

  mediaStatus(input: SimInput): {
    mediaState: string;
    mediaDuration: number | null;
    mediaCursor: number | null;
  } {
    const media = input.media;
    if (!media) return { mediaState: "OBS_MEDIA_STATE_NONE", mediaDuration: null, mediaCursor: null };
    const elapsed = Math.min(this.clock.now() - media.startedAt, media.durationMs);
    if (media.state === "OBS_MEDIA_STATE_PLAYING" && media.durationMs > 0 && elapsed >= media.durationMs) {
      return { mediaState: "OBS_MEDIA_STATE_ENDED", mediaDuration: null, mediaCursor: null };
    }
    if (media.state !== "OBS_MEDIA_STATE_PLAYING") {
      return { mediaState: media.state, mediaDuration: null, mediaCursor: null };
    }
    return { mediaState: media.state, mediaDuration: media.durationMs, mediaCursor: elapsed };
  }
}
