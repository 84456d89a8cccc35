import type { ObsConnection, ObsRequestType } from "./connection.ts";
import { carryOutObsStep, type ObsRequester, type ObsStep, type ObsStepDone } from "./steps.ts";

/*
 * The OBS steps carried out by this server's own connection (`via: server`): the requests are
 * obs/steps.ts's, which the overlay page carries out the same way (`via: overlay`).
 */

/** The connection as a step asks it (obs-websocket-js's typed call, taken by name). */
function requesterOf(connection: ObsConnection): ObsRequester {
  return {
    call: (type, data) =>
      connection.call(type as ObsRequestType, data as never) as Promise<Record<string, unknown>>,
    scenes: () => connection.status().scenes,
  };
}

/** Carries out one OBS step on a connected OBS. */
export function runObsStep(connection: ObsConnection, step: ObsStep): Promise<ObsStepDone> {
  return carryOutObsStep(requesterOf(connection), step);
}
