/**
 * The demo's OBS: the scenes a streamer has ("Starting soon", "Live", "BRB", "Raid"), text sources, an
 * image and a media clip, so `serve --demo` can show a raid switch the scene and a reward show a source.
 */
import type { ObsState } from "./state.ts";

export const DEMO_SCENES = ["Starting soon", "Live", "BRB", "Raid"] as const;

export function seedDemoScenes(state: ObsState): void {
  for (const name of DEMO_SCENES) state.createScene(name);
  const [startingSoon, live, brb, raid] = DEMO_SCENES.map((name) => state.scene(name)!);
  state.createInput(startingSoon!, "Countdown", "text_ft2_source_v2", { text: "Starting soon" }, true);
  state.createInput(live!, "Webcam frame", "image_source", { file: "/demo/webcam-frame.png" }, true);
  state.createInput(live!, "Now playing", "text_ft2_source_v2", { text: "" }, true);
  state.createInput(live!, "Raid alarm", "ffmpeg_source", { local_file: "/demo/raid-alarm.webm" }, false);
  state.createInput(brb!, "BRB message", "text_ft2_source_v2", { text: "Be right back" }, true);
  state.createInput(raid!, "Raid banner", "text_ft2_source_v2", { text: "Welcome, raiders!" }, true);
  state.input("Raid alarm")!.media = { state: "OBS_MEDIA_STATE_STOPPED", durationMs: 6_000, startedAt: 0 };
}
