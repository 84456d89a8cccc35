/**
 * `serve --demo`'s simulated OBS as the dashboard shows it (server/demo.ts adapts the simulator): where
 * the demo account's OBS connection goes, and the "program" a visitor would see in OBS's window, the
 * current scene with its sources, so a raid switching the scene shows in the dashboard.
 */

export interface DemoProgramSource {
  name: string;
  visible: boolean;
  /** A text source's text; null for other sources. */
  text: string | null;
}

export interface DemoProgram {
  scene: string;
  /** The scene's sources, top first, as OBS's Sources dock lists them. */
  sources: DemoProgramSource[];
}

export interface DemoObs {
  /** ws://127.0.0.1:port */
  url: string;
  password: string;
  program(): DemoProgram;
}
