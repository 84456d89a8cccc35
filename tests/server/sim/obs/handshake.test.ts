import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ObsSocket } from "../../../helpers/obs-socket.ts";
import { OBS_TARGETS, type RunningObs } from "./targets.ts";

/**
 * obs-websocket 5's handshake and lifecycle (reference/obs.md §2, §6.2), the same test against the
 * simulator and a real OBS: Hello, authentication, the close codes and OBS's exact reasons, Reidentify,
 * a crash and a quit.
 */

const BASE64_32_BYTES = /^[A-Za-z0-9+/]{43}=$/;

describe.each(OBS_TARGETS)("$name: handshake", (target) => {
  let obs: RunningObs;
  const open: ObsSocket[] = [];
  const connect = async (protocols?: string[]) => {
    const socket = await ObsSocket.open(obs.url, protocols);
    open.push(socket);
    return socket;
  };

  beforeAll(async () => {
    obs = await target.start();
  });
  afterAll(async () => {
    for (const socket of open) socket.close();
    await obs.stop();
  });

  test("Hello names obs-websocket 5.1.0 and RPC 1 and asks for authentication: one salt, a challenge per connection", async () => {
    const first = await connect();
    const second = await connect();
    expect(first.protocol).toBe("obswebsocket.json");
    expect(Object.keys(first.hello).sort()).toEqual(["authentication", "obsWebSocketVersion", "rpcVersion"]);
    expect(first.hello).toMatchObject({ obsWebSocketVersion: "5.1.0", rpcVersion: 1 });
    const [a, b] = [first.hello.authentication, second.hello.authentication] as Array<Record<string, string>>;
    expect(a!.salt).toMatch(BASE64_32_BYTES);
    expect(a!.challenge).toMatch(BASE64_32_BYTES);
    expect(b!.salt).toBe(a!.salt);
    expect(b!.challenge).not.toBe(a!.challenge);
  });

  test("no subprotocol offered: JSON all the same", async () => {
    const socket = await connect([]);
    expect(socket.protocol).toBe("");
    expect(await socket.identify(obs.password)).toEqual({ op: 2, d: { negotiatedRpcVersion: 1 } });
  });

  test("the right password: Identified with RPC 1", async () => {
    const socket = await connect();
    expect(await socket.identify(obs.password)).toEqual({ op: 2, d: { negotiatedRpcVersion: 1 } });
  });

  test("a wrong password: closed with 4009 Authentication failed.", async () => {
    const socket = await connect();
    await expect(socket.identify("not-the-password")).rejects.toThrow();
    expect(await socket.closed).toEqual({ code: 4009, reason: "Authentication failed." });
  });

  test("no authentication string: 4009 saying it is missing", async () => {
    const socket = await connect();
    socket.send(1, { rpcVersion: 1 });
    expect(await socket.closed).toEqual({
      code: 4009,
      reason:
        "Your payload's data is missing an `authentication` string, however authentication is required.",
    });
  });

  test("a request before Identify: 4007", async () => {
    const socket = await connect();
    socket.send(6, { requestType: "GetVersion", requestId: "early" });
    expect(await socket.closed).toEqual({
      code: 4007,
      reason: "You attempted to send a non-Identify message while not identified.",
    });
  });

  test("Identify twice: 4008", async () => {
    const socket = await connect();
    await socket.identify(obs.password);
    socket.send(1, { rpcVersion: 1 });
    expect(await socket.closed).toEqual({
      code: 4008,
      reason: "You are already Identified with the obs-websocket server.",
    });
  });

  test("an RPC version OBS does not speak: 4010", async () => {
    const socket = await connect();
    socket.send(1, { rpcVersion: 2, authentication: socket.authentication(obs.password) });
    expect(await socket.closed).toEqual({
      code: 4010,
      reason: "Your requested RPC version is not supported by this server.",
    });
  });

  test("a 4.x client: 4010 telling it to update", async () => {
    const socket = await connect();
    socket.sendText(JSON.stringify({ "request-type": "GetVersion", "message-id": "1" }));
    expect(await socket.closed).toEqual({
      code: 4010,
      reason:
        "You appear to be attempting to connect with the pre-5.0.0 plugin protocol. Check to make sure your client is updated.",
    });
  });

  test("an unknown op code once identified: 4006 naming it", async () => {
    const socket = await connect();
    await socket.identify(obs.password);
    socket.send(42, {});
    expect(await socket.closed).toEqual({ code: 4006, reason: "Unknown OpCode: 42" });
  });

  test("Reidentify changes the subscriptions in place and answers Identified", async () => {
    const socket = await connect();
    await socket.identify(obs.password, 0);
    const before = socket.frames.length;
    socket.send(3, { eventSubscriptions: 4 });
    expect(await socket.next((frame) => frame.op === 2, 5_000, before)).toEqual({
      op: 2,
      d: { negotiatedRpcVersion: 1 },
    });
  });

  test("a crash drops the socket with no close frame; after a restart the password works again", async () => {
    const socket = await connect();
    await socket.identify(obs.password);
    await obs.kill();
    expect((await socket.closed).code).toBe(1006);
    await obs.restart();
    const again = await connect();
    expect(await again.identify(obs.password)).toEqual({ op: 2, d: { negotiatedRpcVersion: 1 } });
  }, 60_000);
});
