import { afterEach, describe, expect, test } from "bun:test";
import type { Server, Socket, TCPSocketListener } from "bun";
import { startTwitchSimulator, type TwitchSimulator } from "../../../server/sim/twitch/server.ts";
import { SIM_IDS } from "../../../server/sim/twitch/world.ts";
import { HelixApi } from "../../../server/twitch/helix-api.ts";
import { HelixClient, HelixError } from "../../../server/twitch/helix-client.ts";
import { keepAliveFetch, socketTarget } from "../../../server/twitch/keep-alive-fetch.ts";

/**
 * The Helix fetch against real loopback servers: Bun.serve for well-behaved HTTP, raw `Bun.listen`
 * sockets for the framings and failures Bun.serve never produces. Every test stops what it starts.
 */

/** A certificate for localhost that no system trusts (test only; valid until 2126). */
const SELF_SIGNED_CERT = `-----BEGIN CERTIFICATE-----
MIIBmjCCAUGgAwIBAgIUTIcxNTb/3FclCZLRFKLtZuQ+yuUwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNzAzMDkxNloYDzIxMjYxMTAz
MDMwOTE2WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAR6V+pETw5obqfmqY+mEQy2wkOCNGIHAArMR1UicwKfMPLQJkLli/GB
kKknIzkmHitHyAfV+4L6TyP6u/E7seOXo28wbTAdBgNVHQ4EFgQUlbuxNsW9ZR9F
+T0ZHtI8T6D10zAwHwYDVR0jBBgwFoAUlbuxNsW9ZR9F+T0ZHtI8T6D10zAwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDRwAwRAIgBb5MGpOF7fNSdbf4Yf2dZrHVnsCALoVKolPAGRe3+MYCIDnX
VPllDaRO6eZxEAByl8Vo74HJ5HB9CEp3lTkS4HvS
-----END CERTIFICATE-----`;
const SELF_SIGNED_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgskhKvmrtcw9kYRzB
rIMpA2Fq/s8Kqp/y6+ZwX5qwOeKhRANCAAR6V+pETw5obqfmqY+mEQy2wkOCNGIH
AArMR1UicwKfMPLQJkLli/GBkKknIzkmHitHyAfV+4L6TyP6u/E7seOX
-----END PRIVATE KEY-----`;

const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

function serve(handler: (request: Request) => Response | Promise<Response>): Server<undefined> {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler });
  stops.push(() => server.stop(true));
  return server;
}

interface Conn {
  /** Order of acceptance, from 0. */
  id: number;
  /** Requests this socket has carried, counting the one being answered. */
  requests: number;
  /** The request line of the request being answered. */
  requestLine: string;
  buffer: string;
  closed: boolean;
}

interface RawServer {
  url: string;
  /** Sockets accepted so far. */
  accepts: number;
  conns: Conn[];
}

/** A server of raw bytes: `answer` gets each request head (bodies are not expected) and its socket. */
function rawServer(answer: (socket: Socket<Conn>, request: string) => void): RawServer {
  const raw: RawServer = { url: "", accepts: 0, conns: [] };
  const listener: TCPSocketListener<Conn> = Bun.listen<Conn>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket) {
        socket.data = { id: raw.accepts++, requests: 0, requestLine: "", buffer: "", closed: false };
        raw.conns.push(socket.data);
      },
      data(socket, chunk) {
        socket.data.buffer += chunk.toString("latin1");
        for (
          let end = socket.data.buffer.indexOf("\r\n\r\n");
          end !== -1;
          end = socket.data.buffer.indexOf("\r\n\r\n")
        ) {
          const request = socket.data.buffer.slice(0, end);
          socket.data.buffer = socket.data.buffer.slice(end + 4);
          socket.data.requests++;
          socket.data.requestLine = request.split("\r\n")[0] ?? "";
          answer(socket, request);
        }
      },
      close(socket) {
        socket.data.closed = true;
      },
    },
  });
  stops.push(() => listener.stop(true));
  raw.url = `http://127.0.0.1:${listener.port}`;
  return raw;
}

const ok = (body: string, extra = "") =>
  `HTTP/1.1 200 OK\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

const get = (fetch: ReturnType<typeof keepAliveFetch>, url: string, signal?: AbortSignal) =>
  fetch(new URL(url), { method: "GET", ...(signal ? { signal } : {}) });

describe("keepAliveFetch at Twitch's latency", () => {
  test("600 calls at once against a server 150 ms away: all answered within their 5 s deadline", async () => {
    // The start-up of a host's channels subscribes them in one burst: a small pool made most of the
    // calls wait in its queue past their deadline (16 sockets: 38 rounds of 150 ms).
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch() {
        await Bun.sleep(150);
        return new Response("ok");
      },
    });
    try {
      const fetch = keepAliveFetch();
      const url = new URL(`http://127.0.0.1:${server.port}/`);
      const calls = Array.from({ length: 600 }, () =>
        fetch(url, { method: "GET", signal: AbortSignal.timeout(5_000) }).then((r) => r.text()),
      );
      const answers = await Promise.allSettled(calls);
      expect(answers.filter((a) => a.status === "fulfilled" && a.value === "ok").length).toBe(600);
    } finally {
      server.stop(true);
    }
  }, 20_000);
});

describe("keepAliveFetch against Bun.serve", () => {
  test("a Content-Length answer: status, headers, body; 204 has a null body", async () => {
    const server = serve((request) =>
      new URL(request.url).pathname === "/none"
        ? new Response(null, { status: 204 })
        : Response.json({ users: ["anna"] }, { headers: { "Ratelimit-Remaining": "799" } }),
    );
    const fetch = keepAliveFetch();
    const answer = await get(fetch, `${server.url}users?id=1&id=2`);
    expect(answer.status).toBe(200);
    expect(answer.ok).toBe(true);
    expect(answer.headers.get("ratelimit-remaining")).toBe("799");
    expect(answer.headers.get("content-type")).toContain("application/json");
    expect(await answer.json()).toEqual({ users: ["anna"] });
    const none = await get(fetch, `${server.url}none`);
    expect(none.status).toBe(204);
    expect(none.body).toBeNull();
  });

  test("a JSON POST arrives intact: method, path, query, headers, Unicode body; big bodies too", async () => {
    const server = serve(async (request) => {
      const url = new URL(request.url);
      const text = await request.text();
      return Response.json({
        method: request.method,
        path: `${url.pathname}${url.search}`,
        host: request.headers.get("host"),
        clientId: request.headers.get("client-id"),
        authorization: request.headers.get("authorization"),
        type: request.headers.get("content-type"),
        length: request.headers.get("content-length"),
        text,
      });
    });
    const fetch = keepAliveFetch();
    const send = async (message: string) => {
      const body = JSON.stringify({ message });
      const answer = await fetch(new URL(`${server.url}chat/messages?x=%C3%A9`), {
        method: "POST",
        headers: { "Client-Id": "abc", Authorization: "Bearer t0k", "Content-Type": "application/json" },
        body,
      });
      expect(answer.status).toBe(200);
      const echo = (await answer.json()) as Record<string, string>;
      expect(echo).toEqual({
        method: "POST",
        path: "/chat/messages?x=%C3%A9",
        host: `127.0.0.1:${server.port}`,
        clientId: "abc",
        authorization: "Bearer t0k",
        type: "application/json",
        length: String(Buffer.byteLength(body)),
        text: body,
      });
    };
    await send("héllo 👋 Привет 你好");
    // Larger than any socket buffer: written in parts as the socket drains.
    await send("ÿ👋".repeat(400_000));
    await send("after the big one");
  });

  test("a body that is not a string goes to Bun's fetch", async () => {
    const server = serve(async (request) => new Response(await request.text()));
    const answer = await keepAliveFetch()(new URL(server.url), {
      method: "POST",
      body: new TextEncoder().encode("bytes"),
    });
    expect(await answer.text()).toBe("bytes");
  });
});

describe("keepAliveFetch against raw sockets", () => {
  test("sequential requests share one socket", async () => {
    const server = rawServer((socket) => socket.write(ok("hi")));
    const fetch = keepAliveFetch();
    for (let i = 0; i < 3; i++) expect(await (await get(fetch, server.url)).text()).toBe("hi");
    expect(server.accepts).toBe(1);
  });

  test("a chunked answer with trailers, sent in pieces", async () => {
    const server = rawServer((socket) => {
      socket.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nhel");
      setTimeout(() => socket.write("l\r\n9\r\no, wörld\r\n0\r\nX-T: 1\r\n\r\n"), 20);
    });
    const fetch = keepAliveFetch();
    expect(await (await get(fetch, server.url)).text()).toBe("hello, wörld");
    expect(await (await get(fetch, server.url)).text()).toBe("hello, wörld");
    expect(server.accepts).toBe(1);
  });

  test("a body that runs to the close; the next request opens a new socket", async () => {
    const server = rawServer((socket) => {
      socket.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil ");
      setTimeout(() => socket.end("the end"), 20);
    });
    const fetch = keepAliveFetch();
    expect(await (await get(fetch, server.url)).text()).toBe("until the end");
    expect(await (await get(fetch, server.url)).text()).toBe("until the end");
    expect(server.accepts).toBe(2);
  });

  test("Connection: close is honoured: the socket is not reused", async () => {
    const server = rawServer((socket) => socket.write(ok("bye", "Connection: close\r\n")));
    const fetch = keepAliveFetch();
    expect(await (await get(fetch, server.url)).text()).toBe("bye");
    expect(await (await get(fetch, server.url)).text()).toBe("bye");
    expect(server.accepts).toBe(2);
    expect(server.conns[0]?.closed).toBe(true);
  });

  test("the server closes an idle kept-alive socket: the next request gets a new one", async () => {
    const server = rawServer((socket) => {
      socket.write(ok("hi"));
      setTimeout(() => socket.end(), 20);
    });
    const fetch = keepAliveFetch();
    expect(await (await get(fetch, server.url)).text()).toBe("hi");
    await Bun.sleep(150);
    expect(await (await get(fetch, server.url)).text()).toBe("hi");
    expect(server.accepts).toBe(2);
  });

  test("a reused socket that closes before any byte of the answer: retried once on a new socket", async () => {
    // The race every keep-alive client meets: the server closed the idle socket as the request left.
    const server = rawServer((socket) => {
      if (socket.data.requests > 1) socket.end();
      else socket.write(ok("hi"));
    });
    const fetch = keepAliveFetch();
    expect(await (await get(fetch, server.url)).text()).toBe("hi");
    expect(await (await get(fetch, server.url)).text()).toBe("hi");
    expect(server.accepts).toBe(2);
  });

  test("a POST is never sent twice: a reused socket closing under it fails the call instead", async () => {
    // The peer may have taken the chat line before it closed: sending it again could post it twice.
    const server = rawServer((socket) => {
      if (socket.data.requests > 1) socket.end();
      else socket.write(ok("sent"));
    });
    const fetch = keepAliveFetch();
    const post = () => fetch(new URL(server.url), { method: "POST", body: '{"message":"hello chat"}' });
    expect(await (await post()).text()).toBe("sent");
    await expect(post()).rejects.toBeInstanceOf(TypeError);
    expect(server.accepts).toBe(1);
  });

  test("an idle socket is cut after idleMs and its place freed for the next request", async () => {
    const server = rawServer((socket) => socket.write(ok("hi")));
    const fetch = keepAliveFetch({ maxSockets: 1, idleMs: 30 });
    expect(await (await get(fetch, server.url)).text()).toBe("hi");
    await Bun.sleep(150);
    expect(server.conns[0]?.closed).toBe(true);
    expect(await (await get(fetch, server.url)).text()).toBe("hi");
    expect(server.accepts).toBe(2);
  });

  test("a new socket that closes before answering is not retried", async () => {
    const server = rawServer((socket) => socket.end());
    await expect(get(keepAliveFetch(), server.url)).rejects.toBeInstanceOf(TypeError);
    expect(server.accepts).toBe(1);
  });

  test("a server that never answers: rejected with the signal's reason, the socket is dropped", async () => {
    const server = rawServer((socket) => {
      if (socket.data.id > 0) socket.write(ok("late but fine"));
    });
    const fetch = keepAliveFetch();
    const signal = AbortSignal.timeout(100);
    const error = await get(fetch, server.url, signal).catch((caught: unknown) => caught);
    expect(error).toBe(signal.reason);
    expect((error as Error).name).toBe("TimeoutError");
    expect(await (await get(fetch, server.url)).text()).toBe("late but fine");
    expect(server.accepts).toBe(2);
    expect(server.conns[0]?.closed).toBe(true);
  });

  test("a deadline of its own (timeoutMs): the late request is cut on time, the socket dropped; those answered are not cut", async () => {
    // /hang is never answered; anything else at once.
    const server = rawServer((socket, request) => {
      if (!request.startsWith("GET /hang ")) socket.write(ok("fine"));
    });
    const fetch = keepAliveFetch();
    const at = (path: string, timeoutMs: number) =>
      fetch(new URL(`${server.url}${path}`), { method: "GET", timeoutMs });
    const started = performance.now();
    const slow = at("/hang", 400).catch((caught: unknown) => caught);
    // A shorter deadline set after a longer one still comes first.
    const quick = at("/hang", 100).catch((caught: unknown) => caught);
    expect(((await quick) as Error).name).toBe("TimeoutError");
    expect(performance.now() - started).toBeLessThan(350);
    expect(((await slow) as Error).name).toBe("TimeoutError");
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    await Bun.sleep(20);
    expect(server.conns.filter((c) => c.closed).length).toBe(2);
    // Answered within its deadline: nothing cuts it afterwards, and its socket is reused.
    expect(await (await at("/fine", 100)).text()).toBe("fine");
    await Bun.sleep(150);
    expect(await (await at("/fine", 100)).text()).toBe("fine");
    expect(server.accepts).toBe(3);
  });

  test("a process whose calls were answered exits at once: a deadline left listed holds nothing open", async () => {
    const server = serve(() => new Response("ok"));
    const module = new URL("../../../server/twitch/keep-alive-fetch.ts", import.meta.url).pathname;
    const script = `const { keepAliveFetch } = await import(${JSON.stringify(module)});
      const answer = await keepAliveFetch({ idleMs: 50 })(new URL("http://127.0.0.1:${server.port}/"), { method: "GET", timeoutMs: 5000 });
      console.log(await answer.text());`;
    const started = performance.now();
    const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe" });
    expect((await new Response(child.stdout).text()).trim()).toBe("ok");
    expect(await child.exited).toBe(0);
    expect(performance.now() - started).toBeLessThan(2_500);
  });

  test("a deadline of its own on what goes to Bun's fetch", async () => {
    const server = rawServer(() => {});
    const fetch = keepAliveFetch();
    const body = new Uint8Array([1, 2, 3]);
    const error = await fetch(new URL(server.url), { method: "POST", body, timeoutMs: 100 }).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).name).toBe("TimeoutError");
  });

  test("a request waiting for a socket still times out on time", async () => {
    const server = rawServer(() => {});
    const fetch = keepAliveFetch({ maxSockets: 1 });
    const first = new AbortController();
    const stuck = get(fetch, server.url, first.signal).catch((caught: unknown) => caught);
    const queued = get(fetch, server.url, AbortSignal.timeout(50)).catch((caught: unknown) => caught);
    const outcome = await Promise.race([queued, Bun.sleep(3_000).then(() => "still waiting")]);
    expect((outcome as Error).name).toBe("TimeoutError");
    first.abort(new Error("test over"));
    expect(((await stuck) as Error).message).toBe("test over");
    expect(server.accepts).toBe(1);
  });

  test("garbage instead of HTTP: rejected with a TypeError, and the next request works", async () => {
    const server = rawServer((socket) => {
      if (socket.data.id === 0) socket.write("SSH-2.0-OpenSSH_9.6\r\n\r\n");
      else socket.write(ok("fine"));
    });
    const fetch = keepAliveFetch();
    await expect(get(fetch, server.url)).rejects.toBeInstanceOf(TypeError);
    expect(await (await get(fetch, server.url)).text()).toBe("fine");
    expect(server.accepts).toBe(2);
  });

  test("a status fetch cannot return is rejected, not left hanging", async () => {
    const server = rawServer((socket) => {
      if (socket.data.id === 0) socket.write("HTTP/1.1 600 Odd\r\nContent-Length: 0\r\n\r\n");
      else socket.write(ok("fine"));
    });
    const fetch = keepAliveFetch();
    const error = await get(fetch, server.url, AbortSignal.timeout(3_000)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(await (await get(fetch, server.url)).text()).toBe("fine");
  });

  test("an interim 100 Continue before the answer", async () => {
    const server = rawServer((socket) => socket.write(`HTTP/1.1 100 Continue\r\n\r\n${ok("after")}`));
    expect(await (await get(keepAliveFetch(), server.url)).text()).toBe("after");
  });

  test("bytes past the answer: the answer stands, the socket is not reused", async () => {
    const server = rawServer((socket) => socket.write(`${ok("one")}junk`));
    const fetch = keepAliveFetch();
    expect(await (await get(fetch, server.url)).text()).toBe("one");
    expect(await (await get(fetch, server.url)).text()).toBe("one");
    expect(server.accepts).toBe(2);
  });

  test("nothing listening: rejected with a TypeError", async () => {
    const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = probe.port;
    probe.stop(true);
    await expect(get(keepAliveFetch(), `http://127.0.0.1:${port}/`)).rejects.toBeInstanceOf(TypeError);
  });

  test("more concurrent requests than maxSockets: all answered on at most maxSockets sockets", async () => {
    const server = rawServer((socket) => {
      setTimeout(() => socket.write(ok(`n${socket.data.requests}`)), 5);
    });
    const fetch = keepAliveFetch({ maxSockets: 3 });
    const answers = await Promise.all(
      Array.from({ length: 25 }, async () => (await get(fetch, server.url)).status),
    );
    expect(answers).toEqual(Array(25).fill(200));
    expect(server.accepts).toBeGreaterThan(0);
    expect(server.accepts).toBeLessThanOrEqual(3);
  });

  test("aborted while connecting: rejected at once; the socket, once open, serves the next request", async () => {
    const server = rawServer((socket) => socket.write(ok("hi")));
    const fetch = keepAliveFetch({ maxSockets: 1 });
    const controller = new AbortController();
    const reason = new Error("changed my mind");
    const first = get(fetch, server.url, controller.signal);
    controller.abort(reason);
    await expect(first).rejects.toBe(reason);
    expect(await (await get(fetch, server.url)).text()).toBe("hi");
    expect(server.accepts).toBe(1);
  });

  test("aborted halfway through the answer: the socket is dropped, not reused", async () => {
    const server = rawServer((socket) => {
      socket.write(socket.data.id === 0 ? "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhal" : ok("whole"));
    });
    const fetch = keepAliveFetch();
    const signal = AbortSignal.timeout(100);
    const error = await get(fetch, server.url, signal).catch((caught: unknown) => caught);
    expect(error).toBe(signal.reason);
    expect(await (await get(fetch, server.url)).text()).toBe("whole");
    expect(server.accepts).toBe(2);
  });

  test("every way a request ends takes its abort listener off the caller's signal", async () => {
    const server = rawServer((socket) => {
      const path = socket.data.requestLine.split(" ")[1];
      if (path === "/close") socket.end("HTTP/1.1 200 OK\r\n\r\nto the close");
      else if (path === "/garbage") socket.write("garbage\r\n\r\n");
      else socket.write(ok("hi"));
    });
    const fetch = keepAliveFetch();
    const signal = new AbortController().signal;
    let listeners = 0;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = (...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    };
    signal.removeEventListener = (...args: Parameters<typeof remove>) => {
      listeners--;
      remove(...args);
    };
    expect(await (await get(fetch, `${server.url}/ok`, signal)).text()).toBe("hi");
    expect(await (await get(fetch, `${server.url}/close`, signal)).text()).toBe("to the close");
    await expect(get(fetch, `${server.url}/garbage`, signal)).rejects.toBeInstanceOf(TypeError);
    expect(listeners).toBe(0);
  });

  test("HTTPS: a certificate nobody trusts is refused, and the reason says so", async () => {
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert: SELF_SIGNED_CERT, key: SELF_SIGNED_KEY },
      fetch: () => new Response("must not be read"),
    });
    stops.push(() => server.stop(true));
    const error = await get(
      keepAliveFetch(),
      `https://localhost:${server.port}/`,
      AbortSignal.timeout(3_000),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/certificate/i);
  });
});

describe("socketTarget", () => {
  test("IPv6 literals lose their brackets and get no SNI; names are their own SNI", () => {
    expect(socketTarget(new URL("https://[::1]:8443/helix"))).toEqual({
      hostname: "::1",
      port: 8443,
      tls: true,
    });
    expect(socketTarget(new URL("https://api.twitch.tv/helix"))).toEqual({
      hostname: "api.twitch.tv",
      port: 443,
      tls: { serverName: "api.twitch.tv" },
    });
    expect(socketTarget(new URL("http://127.0.0.1/"))).toEqual({
      hostname: "127.0.0.1",
      port: 80,
      tls: false,
    });
  });
});

describe("HelixClient over keepAliveFetch and the Twitch simulator", () => {
  let sim: TwitchSimulator;
  afterEach(async () => {
    await sim.stop();
  });

  test("Send Chat Message and a GET work; a slow Twitch gives 'did not answer in time'", async () => {
    sim = startTwitchSimulator();
    const client = new HelixClient({ baseUrl: sim.helixUrl, clientId: sim.client.id, timeoutMs: 300 });
    const api = new HelixApi(client);
    const token = sim.issueUserToken("cuebotdemo", ["user:write:chat"]).accessToken;
    const sent = await api.sendChatMessage(token, {
      broadcasterId: SIM_IDS.demo,
      senderId: SIM_IDS.demo,
      text: "héllo from cuebot 👋",
    });
    expect(sent.is_sent).toBe(true);
    expect(sim.chat.lines("cuebotdemo").at(-1)?.text).toBe("héllo from cuebot 👋");
    const [user] = await api.users(token);
    expect(user?.login).toBe("cuebotdemo");
    sim.knobs.routeLatencyMs.set("GET /users", 2_000);
    const error = await api.users(token).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HelixError);
    expect((error as HelixError).message).toBe("Twitch did not answer in time");
    expect((error as HelixError).status).toBeNull();
    sim.knobs.routeLatencyMs.delete("GET /users");
    expect((await api.users(token))[0]?.login).toBe("cuebotdemo");
  });
});
