/**
 * The yardstick of `npm run bench`: a bare `Bun.serve` answering constant JSON, run as its own process
 * like the binary under test. Prints its port on stdout.
 */
const body = JSON.stringify({ status: 200, data: { ok: true } });
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  development: false,
  fetch: () => new Response(body, { headers: { "content-type": "application/json; charset=utf-8" } }),
});
console.log(server.port);
process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});
