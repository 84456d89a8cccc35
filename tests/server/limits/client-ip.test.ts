import { describe, expect, test } from "bun:test";
import { parseIp } from "../../../server/core/ip-key.ts";
import { createLogger } from "../../../server/core/log.ts";
import { AddressTable } from "../../../server/limits/address-table.ts";
import { ClientIpResolver, type SocketPeer, UNKNOWN_CLIENT } from "../../../server/limits/client-ip.ts";

function resolver(trustProxy: boolean | readonly string[], testAddressHeader?: string) {
  const lines: string[] = [];
  const log = createLogger({ level: "debug", format: "json", write: (line) => lines.push(line) });
  return { lines, clientIp: new ClientIpResolver({ trustProxy, log, testAddressHeader }) };
}

const socket = (address: string): SocketPeer => ({ requestIP: () => ({ address }) });

/** The client address of `req` as the server listening on `peer` (null: no socket) would see it. */
function resolveVia(clientIp: ClientIpResolver, req: Request, peer: SocketPeer | null): string {
  clientIp.listeningOn(peer);
  return clientIp.of(req);
}
const request = (headers: Record<string, string> = {}) => new Request("http://localhost/x", { headers });

/** Whether a per-IP limit counts `a` and `b` as the same client (one slot of its address table). */
function sameClient(a: string, b: string): boolean {
  const table = new AddressTable(16);
  const slot = table.insert(a);
  return table.find(b) === slot;
}

describe("IP limit keys", () => {
  test("IPv4 is keyed by address", () => {
    expect(sameClient("203.0.113.7", "203.0.113.7")).toBe(true);
    expect(sameClient("203.0.113.8", "203.0.113.7")).toBe(false);
    expect(sameClient("203.000.113.07", "203.0.113.7")).toBe(true);
    expect(sameClient("0.0.0.0", "0.0.0.0")).toBe(true);
    expect(sameClient("255.255.255.255", "255.255.255.254")).toBe(false);
  });

  test("IPv6 is keyed by its /64, whatever the notation", () => {
    const client = "2001:db8:aa:bb::1";
    expect(sameClient(client, "2001:0db8:00aa:00bb:ffff:1:2:3")).toBe(true);
    expect(sameClient(client, "[2001:db8:aa:bb::9]")).toBe(true);
    expect(sameClient(client, "2001:DB8:AA:BB:0:0:0:1%eth0")).toBe(true);
    expect(sameClient(client, "2001:db8:aa:bc::1")).toBe(false);
    expect(sameClient("::1", "::2")).toBe(true);
  });

  test("an IPv4-mapped IPv6 address is the IPv4 client", () => {
    expect(sameClient("::ffff:198.51.100.4", "198.51.100.4")).toBe(true);
    expect(sameClient("::ffff:c633:6404", "198.51.100.4")).toBe(true);
  });

  test("what is not an address is rejected, and counted under its own text", () => {
    for (const text of [
      "",
      "unknown",
      "1.2.3",
      "256.1.1.1",
      "1::2::3",
      "12345::",
      "1:2:3:4:5:6:7:8:9",
      "::g",
    ]) {
      expect(parseIp(text)).toBeNull();
      expect(sameClient(text, text)).toBe(true);
      expect(sameClient(text, `${text}x`)).toBe(false);
    }
    expect(parseIp("::")).not.toBeNull();
    expect(parseIp("1:2:3:4:5:6:1.2.3.4")).not.toBeNull();
  });
});

describe("client IP", () => {
  test("the socket address is the client when proxy trust is off", () => {
    const { clientIp } = resolver(false);
    expect(resolveVia(clientIp, request(), socket("198.51.100.1"))).toBe("198.51.100.1");
  });

  test("with trust on, the right-most X-Forwarded-For entry wins (left-most ones can be forged)", () => {
    const { clientIp } = resolver(true);
    const forged = request({ "x-forwarded-for": "1.1.1.1, 203.0.113.50" });
    expect(resolveVia(clientIp, forged, socket("127.0.0.1"))).toBe("203.0.113.50");
    const ipv6 = request({ "x-forwarded-for": "2001:db8::1 , 2001:db8:1:2::3" });
    expect(resolveVia(clientIp, ipv6, socket("127.0.0.1"))).toBe("2001:db8:1:2::3");
  });

  test("with trust on but no usable X-Forwarded-For, the socket address is used", () => {
    const { clientIp } = resolver(true);
    expect(resolveVia(clientIp, request(), socket("127.0.0.1"))).toBe("127.0.0.1");
    const junk = request({ "x-forwarded-for": "203.0.113.9, not-an-ip" });
    expect(resolveVia(clientIp, junk, socket("127.0.0.1"))).toBe("127.0.0.1");
  });

  test("with trust off, X-Forwarded-For is ignored and a warning is logged once", () => {
    const { clientIp, lines } = resolver(false);
    for (let i = 0; i < 3; i++) {
      const forwarded = request({ "x-forwarded-for": `203.0.113.${i}` });
      expect(resolveVia(clientIp, forwarded, socket("198.51.100.1"))).toBe("198.51.100.1");
    }
    const warnings = lines.map((line) => JSON.parse(line)).filter((entry) => entry.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toContain("CUEBOT_TRUST_PROXY");
  });

  test("without a socket, the test header is read only when configured", () => {
    const withHeader = () => request({ "x-test-client-ip": "192.0.2.5" });
    expect(resolveVia(resolver(false, "x-test-client-ip").clientIp, withHeader(), null)).toBe("192.0.2.5");
    expect(resolveVia(resolver(false).clientIp, withHeader(), null)).toBe(UNKNOWN_CLIENT);
    // A real socket always wins over the test header.
    expect(
      resolveVia(resolver(false, "x-test-client-ip").clientIp, withHeader(), socket("198.51.100.1")),
    ).toBe("198.51.100.1");
  });

  test("an address is resolved once per request: later layers get the same one", () => {
    const { clientIp } = resolver(false);
    const req = request();
    expect(resolveVia(clientIp, req, socket("198.51.100.77"))).toBe("198.51.100.77");
    clientIp.listeningOn(null);
    expect(clientIp.of(req)).toBe("198.51.100.77");
    expect(clientIp.of(request())).toBe(UNKNOWN_CLIENT);
  });
});

describe("trusted proxies (--trust-proxy LIST)", () => {
  const forwarded = (value: string) => request({ "x-forwarded-for": value });

  test("an untrusted peer is keyed by its own address, whatever X-Forwarded-For says", () => {
    const { clientIp } = resolver(true);
    expect(resolveVia(clientIp, forwarded("203.0.113.9"), socket("198.51.100.1"))).toBe("198.51.100.1");
    const listed = resolver(["10.0.0.0/8"]).clientIp;
    expect(resolveVia(listed, forwarded("203.0.113.9"), socket("192.0.2.1"))).toBe("192.0.2.1");
    // A loopback peer is not trusted when a list names other proxies.
    expect(resolveVia(listed, forwarded("203.0.113.9"), socket("127.0.0.1"))).toBe("127.0.0.1");
  });

  test("true trusts loopback peers, IPv4 and IPv6 (also as IPv4-mapped)", () => {
    const { clientIp } = resolver(true);
    expect(resolveVia(clientIp, forwarded("203.0.113.1"), socket("127.0.0.1"))).toBe("203.0.113.1");
    expect(resolveVia(clientIp, forwarded("203.0.113.2"), socket("127.9.9.9"))).toBe("203.0.113.2");
    expect(resolveVia(clientIp, forwarded("203.0.113.3"), socket("::1"))).toBe("203.0.113.3");
    expect(resolveVia(clientIp, forwarded("203.0.113.4"), socket("::ffff:127.0.0.1"))).toBe("203.0.113.4");
  });

  test("a chain of proxies: the right-most entry that is not itself a trusted proxy is the client", () => {
    const { clientIp } = resolver(["10.0.0.0/8", "192.0.2.7"]);
    const peer = socket("10.1.1.1");
    // client → CDN edge 192.0.2.7 → load balancer 10.2.2.2 → cuebot; the left-most entry is forged.
    expect(resolveVia(clientIp, forwarded("6.6.6.6, 203.0.113.50, 192.0.2.7, 10.2.2.2"), peer)).toBe(
      "203.0.113.50",
    );
    // Every hop trusted: the left-most one is as far as anyone can tell.
    expect(resolveVia(clientIp, forwarded("10.3.3.3, 192.0.2.7"), peer)).toBe("10.3.3.3");
  });

  test("IPv6 proxies and clients, by address and by CIDR", () => {
    const { clientIp } = resolver(["2001:db8:ffff::/48", "fd00::1"]);
    const chain = forwarded("2001:db8:1:2::3, 2001:db8:ffff:1::10");
    expect(resolveVia(clientIp, chain, socket("fd00::1"))).toBe("2001:db8:1:2::3");
    expect(resolveVia(clientIp, forwarded("2001:db8:1:2::3"), socket("[2001:db8:ffff:9::1]"))).toBe(
      "2001:db8:1:2::3",
    );
    expect(resolveVia(clientIp, forwarded("2001:db8:1:2::3"), socket("fd00::2"))).toBe("fd00::2");
  });

  test("a malformed entry ends the walk at the proxy that passed it on", () => {
    const { clientIp } = resolver(["10.0.0.0/8"]);
    expect(resolveVia(clientIp, forwarded("203.0.113.1, garbage"), socket("10.0.0.1"))).toBe("10.0.0.1");
    expect(resolveVia(clientIp, forwarded("garbage, 203.0.113.1"), socket("10.0.0.1"))).toBe("203.0.113.1");
    expect(resolveVia(clientIp, forwarded("203.0.113.1:4711, 10.0.0.2"), socket("10.0.0.1"))).toBe(
      "10.0.0.2",
    );
    expect(resolveVia(clientIp, forwarded(""), socket("10.0.0.1"))).toBe("10.0.0.1");
  });
});
