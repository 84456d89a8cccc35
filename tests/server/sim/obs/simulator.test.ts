import { afterEach, describe, expect, test } from "bun:test";
import { ManualClock } from "../../../../server/core/clock.ts";
import {
  DEMO_OBS_PASSWORD,
  type ObsSimulator,
  startObsSimulator,
} from "../../../../server/sim/obs/server.ts";
import { ObsSocket } from "../../../helpers/obs-socket.ts";

/**
 * What only the simulator has: the demo's scenes, the test controls (state, password, stop, kill and
 * restart keeping the scenes), media playback on a clock, and its one refusal (msgpack). The protocol
 * itself is checked against a real OBS in handshake.test.ts and requests.test.ts.
 */

let sim: ObsSimulator;
const sockets: ObsSocket[] = [];
const connect = async () => {
  const socket = await ObsSocket.open(sim.url);
  sockets.push(socket);
  return socket;
};

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await sim.kill();
});

describe("simulated OBS", () => {
  test("the demo's OBS: four scenes on Starting soon, a text, an image and a media source", async () => {
    sim = startObsSimulator();
    const client = await connect();
    await client.identify(DEMO_OBS_PASSWORD);
    const list = await client.call("GetSceneList");
    expect(list.currentProgramSceneName).toBe("Starting soon");
    expect((list.scenes as Array<{ sceneName: string }>).map((s) => s.sceneName)).toEqual([
      "Raid",
      "BRB",
      "Live",
      "Starting soon",
    ]);
    const inputs = (await client.call("GetInputList")).inputs as Array<{
      inputName: string;
      inputKind: string;
    }>;
    expect(inputs.map((i) => [i.inputName, i.inputKind])).toEqual([
      ["Countdown", "text_ft2_source_v2"],
      ["Webcam frame", "image_source"],
      ["Now playing", "text_ft2_source_v2"],
      ["Raid alarm", "ffmpeg_source"],
      ["BRB message", "text_ft2_source_v2"],
      ["Raid banner", "text_ft2_source_v2"],
    ]);
    const live = (await client.call("GetSceneItemList", { sceneName: "Live" })).sceneItems as Array<
      Record<string, unknown>
    >;
    expect(live.map((item) => [item.sourceName, item.sceneItemEnabled])).toEqual([
      ["Webcam frame", true],
      ["Now playing", true],
      ["Raid alarm", false],
    ]);
  });

  test("tests read and change the state directly; clients hear changes made through requests", async () => {
    sim = startObsSimulator();
    const client = await connect();
    await client.identify(DEMO_OBS_PASSWORD);
    await client.call("SetCurrentProgramScene", { sceneName: "BRB" });
    expect(sim.state.programScene).toBe("BRB");
    sim.state.setProgramScene(sim.state.scene("Live")!);
    await client.event("CurrentProgramSceneChanged", { sceneName: "Live" });
    expect(await client.call("GetCurrentProgramScene")).toEqual({ currentProgramSceneName: "Live" });
    expect(sim.identifiedClients()).toBe(1);
  });

  test("quitting: ExitStarted, then 1001 Server stopping.; restart after it or a crash: same port, same scenes, a new salt", async () => {
    sim = startObsSimulator({ seeded: false, password: "first" });
    const client = await connect();
    await client.identify("first");
    await client.call("CreateScene", { sceneName: "Kept" });
    const salt = (client.hello.authentication as { salt: string }).salt;
    const general = await connect();
    await general.identify("first", 1);
    await sim.stop();
    expect(await client.closed).toEqual({ code: 1001, reason: "Server stopping." });
    expect(await general.closed).toEqual({ code: 1001, reason: "Server stopping." });
    expect(general.events().map((event) => event.eventType)).toEqual(["ExitStarted"]);
    expect(client.events("ExitStarted")).toHaveLength(1);
    await expect(ObsSocket.open(sim.url)).rejects.toThrow();
    await sim.restart();
    const again = await connect();
    expect((again.hello.authentication as { salt: string }).salt).not.toBe(salt);
    await again.identify("first");
    const names = ((await again.call("GetSceneList")).scenes as Array<{ sceneName: string }>).map(
      (s) => s.sceneName,
    );
    expect(names).toEqual(["Kept", "Scene"]);
    await sim.kill();
    expect((await again.closed).code).toBe(1006);
    await sim.restart();
    await (await connect()).identify("first");
  });

  test("a new password closes every client with 1001; the old one then fails, and null turns authentication off", async () => {
    sim = startObsSimulator({ password: "old-pass" });
    const client = await connect();
    await client.identify("old-pass");
    sim.setPassword("new-pass");
    expect(await client.closed).toEqual({ code: 1001, reason: "Server stopping." });
    const stale = await connect();
    stale.send(1, { rpcVersion: 1, authentication: stale.authentication("old-pass") });
    expect((await stale.closed).code).toBe(4009);
    await (await connect()).identify("new-pass");
    sim.setPassword(null);
    const open = await connect();
    expect(open.hello.authentication).toBeUndefined();
    expect(await open.identify(null)).toEqual({ op: 2, d: { negotiatedRpcVersion: 1 } });
  });

  test("a media source plays on restart, stops on stop, and ends after its length", async () => {
    const clock = new ManualClock();
    sim = startObsSimulator({ clock });
    const client = await connect();
    await client.identify(DEMO_OBS_PASSWORD);
    const status = () => client.call("GetMediaInputStatus", { inputName: "Raid alarm" });
    const act = (action: string) =>
      client.call("TriggerMediaInputAction", {
        inputName: "Raid alarm",
        mediaAction: `OBS_WEBSOCKET_MEDIA_INPUT_ACTION_${action}`,
      });
    expect(await status()).toEqual({
      mediaState: "OBS_MEDIA_STATE_STOPPED",
      mediaDuration: null,
      mediaCursor: null,
    });
    await act("RESTART");
    clock.advance(1_500);
    expect(await status()).toEqual({
      mediaState: "OBS_MEDIA_STATE_PLAYING",
      mediaDuration: 6_000,
      mediaCursor: 1_500,
    });
    await act("STOP");
    expect((await status()).mediaState).toBe("OBS_MEDIA_STATE_STOPPED");
    await act("RESTART");
    clock.advance(6_000);
    expect((await status()).mediaState).toBe("OBS_MEDIA_STATE_ENDED");
    expect(await client.call("GetMediaInputStatus", { inputName: "Countdown" })).toEqual({
      mediaState: "OBS_MEDIA_STATE_NONE",
      mediaDuration: null,
      mediaCursor: null,
    });
  });

  test("a client offering msgpack only is refused at the upgrade (the simulator speaks JSON)", async () => {
    sim = startObsSimulator();
    await expect(ObsSocket.open(sim.url, ["obswebsocket.msgpack"])).rejects.toThrow();
    const both = await connect();
    expect(both.protocol).toBe("obswebsocket.json");
  });
});
