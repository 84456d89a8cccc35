/**
 * The two OBSes the protocol tests run against: the simulator and a real headless OBS 29.0.2
 * (tests/helpers/obs.ts). Real OBS is the ground truth: where the simulator answers otherwise, the same
 * test fails on the simulator only. Real OBS is left out, with a line saying so, where it is not installed.
 */

import { startObsSimulator } from "../../../../server/sim/obs/server.ts";
import { explainObsSkip, haveObs, startRealObs } from "../../../helpers/obs.ts";

export interface RunningObs {
  url: string;
  password: string;
  /** Crash: the socket drops with no close frame. */
  kill(): Promise<void>;
  /** Start again on the same port after kill or quit; resolves once it listens. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface ObsTarget {
  name: string;
  start(): Promise<RunningObs>;
}

const PASSWORD = "protocol-test-pw";

const simulator: ObsTarget = {
  name: "simulated OBS",
  async start() {
    const sim = startObsSimulator({ password: PASSWORD, seeded: false });
    return {
      url: sim.url,
      password: PASSWORD,
      kill: () => sim.kill(),
      restart: () => sim.restart(),
      stop: () => sim.kill(),
    };
  },
};

const realObs: ObsTarget = {
  name: "real OBS 29.0.2",
  start: () => startRealObs({ password: PASSWORD }),
};

explainObsSkip();

export const OBS_TARGETS: ObsTarget[] = haveObs ? [simulator, realObs] : [simulator];
