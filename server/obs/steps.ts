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
