import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EventSubscription, OBSWebSocket, OBSWebSocketError } from "obs-websocket-js/json";
import { OBS_TARGETS, type RunningObs } from "./targets.ts";

/**
 * The maintained client cuebot uses (obs-websocket-js 5.0.8, JSON entry point; reference/obs.md §7), on
 * this Bun, against the simulator and a real OBS: connect with a password, requests, an event, a 600
 * as an OBSWebSocketError, and a wrong password refused with 4009.
 */
describe.each(OBS_TARGETS)("$name: obs-websocket-js", (target) => {
  let obs: RunningObs;

  beforeAll(async () => {
    obs = await target.start();
  });
  afterAll(async () => {
    await obs.stop();
  });

  test("connects, switches the scene, hears it, reports a 600, and is refused a wrong password", async () => {
    const client = new OBSWebSocket();
    const hello = await client.connect(obs.url, obs.password, {
      eventSubscriptions: EventSubscription.Scenes | EventSubscription.SceneItems,
    });
    expect(hello).toMatchObject({ obsWebSocketVersion: "5.1.0", negotiatedRpcVersion: 1 });
    const version = await client.call("GetVersion");
    expect(version.obsVersion).toBe("29.0.2");

    await client.call("CreateScene", { sceneName: "Library scene" });
    const heard = new Promise<string>((resolve) =>
      client.on("CurrentProgramSceneChanged", (event) => resolve(event.sceneName)),
    );
    await client.call("SetCurrentProgramScene", { sceneName: "Library scene" });
    expect(await heard).toBe("Library scene");

    const missing = await client
      .call("SetCurrentProgramScene", { sceneName: "Nope" })
      .catch((error) => error);
    expect(missing).toBeInstanceOf(OBSWebSocketError);
    expect(missing).toMatchObject({ code: 600, message: "No source was found by the name of `Nope`." });
    await client.disconnect();

    const refused = await new OBSWebSocket().connect(obs.url, "wrong password").catch((error) => error);
    expect(refused).toBeInstanceOf(OBSWebSocketError);
    expect(refused).toMatchObject({ code: 4009, message: "Authentication failed." });
  });
});
