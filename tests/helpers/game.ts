import { ManualClock } from "../../server/core/clock.ts";
import { type GameSimulator, startGameSimulator } from "../../server/sim/game/server.ts";
import { createTestContext, type TestContext } from "./context.ts";

/** A test context whose game provider is the simulator, both on one manual clock. */
export interface GameHarness {
  clock: ManualClock;
  sim: GameSimulator;
  t: TestContext;
}

export async function startGameHarness(): Promise<GameHarness> {
  const clock = new ManualClock();
  const sim = startGameSimulator({ clock });
  const t = await createTestContext({
    clock,
    configure: (config) => {
      config.game.apiUrl = sim.url;
      config.game.apiKey = sim.apiKey;
    },
  });
  return { clock, sim, t };
}

export async function stopGameHarness(harness: Pick<GameHarness, "sim" | "t">): Promise<void> {
  await harness.t.cleanup();
  await harness.sim.stop();
}
