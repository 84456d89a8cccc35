/**
 * A minimal obs-websocket 5 server (no authentication) that can "Kick" its clients as OBS's session
 * list does (close 4011), which neither the simulator nor a headless OBS can be asked to do.
 */

type Closable = { close(code: number, reason: string): void; send(text: string): unknown };

const ANSWERS: Record<string, unknown> = {
  GetVersion: { obsVersion: "29.0.2" },
  GetSceneList: { scenes: [{ sceneIndex: 0, sceneName: "Scene" }] },
  GetInputList: { inputs: [] },
};

const reply = (ws: Closable, op: number, d: unknown) => ws.send(JSON.stringify({ op, d }));

export function startKickingObs() {
  let upgrades = 0;
  const clients = new Set<Closable>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request, srv) {
      upgrades++;
      const headers = new Headers({ "Sec-WebSocket-Protocol": "obswebsocket.json" });
      return srv.upgrade(request, { data: undefined, headers })
        ? undefined
        : new Response("no", { status: 400 });
    },
    websocket: {
      open(ws) {
        clients.add(ws);
        reply(ws, 0, { obsWebSocketVersion: "5.1.0", rpcVersion: 1 });
      },
      message(ws, message) {
        const { op, d } = JSON.parse(String(message)) as {
          op: number;
          d: { requestType: string; requestId: string };
        };
        if (op === 1) {
          reply(ws, 2, { negotiatedRpcVersion: 1 });
          return;
        }
        const { requestType, requestId } = d;
        const requestStatus = { result: true, code: 100 };
        reply(ws, 7, { requestType, requestId, requestStatus, responseData: ANSWERS[requestType] });
      },
      close(ws) {
        clients.delete(ws);
      },
    },
  });
  return {
    url: `ws://127.0.0.1:${server.port}`,
    upgrades: () => upgrades,
    kick() {
      for (const ws of clients) ws.close(4011, "You have been kicked.");
    },
    stop: () => server.stop(true),
  };
}
