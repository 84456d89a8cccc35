import { readFileSync } from "node:fs";
import { Elysia } from "elysia";

/**
 * The yardsticks of `npm run bench`, each its own process like the binary under test; prints its port.
 *
 * - `constant` (default): a bare `Bun.serve` answering constant JSON, the 1.00× every row is a ratio to.
 * - `contract-reads`: a bare `Bun.serve` that does only what the contract makes every cuebot request
 *   do, and nothing else: read the URL, the headers the hot paths must look at (body length, cookie,
 *   key header, a chat bot's header, X-Forwarded-For) and the socket peer, and answer with the
 *   headers every reply carries (security headers, the rate-limit pair, text mode's status). Its ratio
 *   is the ceiling any implementation of the contract on Bun can reach on this machine.
 * - `elysia`: a trivial Elysia route, the framework's own floor.
 * - `replay FILE`: a bare `Bun.serve` that answers each path with the reply cuebot gave it, recorded
 *   beforehand (status, headers, body; FILE as written by the bench). It reads the URL and nothing
 *   else, and computes nothing: the ceiling of any server giving those same replies on this machine.
 */
const mode = process.argv[2] ?? "constant";
const body = JSON.stringify({ status: 200, data: { ok: true } });
const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };
const CONTRACT_HEADERS = {
  "content-type": "text/plain; charset=utf-8",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "x-ratelimit-limit": "60",
  "x-cuebot-status": "200",
};
const READ_HEADERS = ["content-length", "cookie", "x-api-key", "nightbot-user", "x-forwarded-for"];

function contractReads(request: Request, server: Bun.Server<unknown>): Response {
  let seen = request.url.length + (server.requestIP(request)?.address.length ?? 0);
  for (const name of READ_HEADERS) seen += request.headers.get(name)?.length ?? 0;
  return new Response("Gold 2 - 45 RR (1045 ELO)", {
    headers: { ...CONTRACT_HEADERS, "x-ratelimit-remaining": String(seen & 63) },
  });
}

/** A recorded reply, as `bench/run.ts` writes it. */
interface RecordedReply {
  status: number;
  headers: [string, string][];
  body: string;
}

function replayer(file: string): (request: Request) => Response {
  const recorded = JSON.parse(readFileSync(file, "utf8")) as Record<string, RecordedReply>;
  const replies = new Map(
    Object.entries(recorded).map(([path, reply]) => [
      path,
      { status: reply.status, headers: new Headers(reply.headers), body: reply.body },
    ]),
  );
  return (request) => {
    const url = request.url;
    const reply = replies.get(url.substring(url.indexOf("/", url.indexOf("//") + 2)));
    if (reply === undefined) return new Response("not recorded", { status: 404 });
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
}

let port: number;
let stop: () => void;
if (mode === "elysia") {
  const app = new Elysia().get("/", () => ({ status: 200, data: { ok: true } }));
  app.listen({ hostname: "127.0.0.1", port: 0, development: false });
  port = app.server?.port ?? 0;
  stop = () => app.stop(true);
} else {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    development: false,
    fetch:
      mode === "contract-reads"
        ? contractReads
        : mode === "replay"
          ? replayer(process.argv[3] ?? "")
          : () => new Response(body, { headers: JSON_HEADERS }),
  });
  port = server.port ?? 0;
  stop = () => server.stop(true);
}
console.log(port);
process.on("SIGTERM", () => {
  stop();
  process.exit(0);
});
