import { type Cidr, cidrContains, ipv4Bits, parseCidr, parseIp } from "../core/ip-key.ts";
import type { Logger } from "../core/log.ts";

/** Where a request's client address is kept once resolved: on the Request itself, gone with it. */
const CLIENT_IP = Symbol("cuebot.clientIp");

type Annotated = Request & { [CLIENT_IP]?: string };

/** What the HTTP server tells about a request's peer (Bun's `server.requestIP`). */
export interface SocketPeer {
  requestIP(request: Request): { address: string } | null;
}

/** The key used when no address can be known (no socket, e.g. `app.handle` without a test header). */
export const UNKNOWN_CLIENT = "unknown";

/** What `--trust-proxy` alone (or `true`) trusts: the loopback peers. */
export const LOOPBACK_PROXIES: readonly string[] = ["127.0.0.0/8", "::1"];

export interface ClientIpOptions {
  /** CUEBOT_TRUST_PROXY: false, true (loopback peers) or the trusted proxies' addresses and CIDRs. */
  trustProxy: boolean | readonly string[];
  log: Logger;
  /**
   * Tests only: under `app.handle` there is no socket, so this header names the client address. It is
   * read only when the server reports no peer, and production contexts never set it.
   */
  testAddressHeader?: string;
}

/** The configured proxies, asked once per hop; the last answer is kept (one proxy sends most traffic). */
export class TrustedProxies {
  readonly #ranges: Cidr[];
  /** The IPv4 ranges again as [network, mask] pairs, so an IPv4 hop is checked without parsing. */
  readonly #ipv4: [number, number][];
  #lastAddress = "";
  #lastAnswer = false;

  constructor(setting: boolean | readonly string[]) {
    const list = setting === true ? LOOPBACK_PROXIES : setting === false ? [] : setting;
    this.#ranges = list.map((entry) => {
      const cidr = parseCidr(entry);
      if (!cidr) throw new RangeError(`not an address or CIDR: ${entry}`);
      return cidr;
    });
    this.#ipv4 = this.#ranges
      .filter((range) => range.version === 4)
      .map((range) => {
        const mask = range.prefix === 0 ? 0 : (~0 << (32 - range.prefix)) >>> 0;
        const [a, b, c, d] = range.units as [number, number, number, number];
        return [(((a << 24) | (b << 16) | (c << 8) | d) & mask) >>> 0, mask];
      });
  }

  get none(): boolean {
    return this.#ranges.length === 0;
  }

  contains(address: string): boolean {
    if (address === this.#lastAddress) return this.#lastAnswer;
    const bits = ipv4Bits(address);
    if (bits >= 0) return this.#ipv4.some(([network, mask]) => (bits & mask) >>> 0 === network);
    const ip = parseIp(address);
    const answer = ip !== null && this.#ranges.some((range) => cidrContains(range, ip));
    this.#lastAddress = address;
    this.#lastAnswer = answer;
    return answer;
  }
}

/**
 * Finds the client address a request came from. The socket peer is the truth unless it is a trusted
 * proxy (CONTRACT §2, CUEBOT_TRUST_PROXY); then X-Forwarded-For is walked from the right, past every
 * entry that is itself a trusted proxy, and the first one that is not is the client. Entries further
 * left were written by whoever called the first proxy, so they can be forged; a peer that is not
 * trusted is keyed by its own address whatever it sends. A malformed entry ends the walk at the proxy
 * that passed it on. Resolved once per request, on first use, and remembered on the request. The
 * socket peers come from the server that listens (`listeningOn`, set by server/listen.ts);
 * without one (tests through `app.handle`) there is no socket address.
 */
export class ClientIpResolver {
  readonly #options: ClientIpOptions;
  readonly #trusted: TrustedProxies;
  #server: SocketPeer | null = null;

  constructor(options: ClientIpOptions) {
    this.#options = options;
    this.#trusted = new TrustedProxies(options.trustProxy);
  }

  /**
   * The server requests arrive on, which knows their socket peers. Held here rather than asked of
   * Elysia's context: a hook that reads `server` makes Elysia define it on every request's context
   * (~0.2 µs each).
   */
  listeningOn(server: SocketPeer | null): void {
    this.#server = server;
  }

  /** The client address of this request (resolved on first use). */
  of(request: Request): string {
    const annotated = request as Annotated;
    annotated[CLIENT_IP] ??= this.#find(request);
    return annotated[CLIENT_IP];
  }

  /** Whether the request's direct peer is one of the configured proxies (its X-Forwarded-* count). */
  fromTrustedProxy(request: Request): boolean {
    return !this.#trusted.none && this.#trusted.contains(this.#socketAddress(request));
  }

  #find(request: Request): string {
    const socketAddress = this.#socketAddress(request);
    if (this.#trusted.none) {
      if (request.headers.has("x-forwarded-for")) {
        this.#options.log.warnOnce(
          "untrusted-x-forwarded-for",
          "a request carried X-Forwarded-For but proxy trust is off, so clients are told apart by the socket address; if cuebot runs behind a reverse proxy, set CUEBOT_TRUST_PROXY=true (or --trust-proxy)",
          { socketAddress },
        );
      }
      return socketAddress;
    }
    if (!this.#trusted.contains(socketAddress)) return socketAddress;
    const forwarded = request.headers.get("x-forwarded-for");
    if (forwarded === null) return socketAddress;
    let hop = socketAddress;
    let end = forwarded.length;
    while (end > 0) {
      const comma = forwarded.lastIndexOf(",", end - 1);
      const entry = forwarded.slice(comma + 1, end).trim();
      end = comma === -1 ? 0 : comma;
      if (entry === "" && comma !== -1) continue; // "a,,b": an empty field says nothing
      if (ipv4Bits(entry) < 0 && parseIp(entry) === null) return hop;
      hop = entry;
      if (!this.#trusted.contains(entry)) return entry;
    }
    // Every hop is a trusted proxy: the left-most one is as far as anyone can tell.
    return hop;
  }

  #socketAddress(request: Request): string {
    const peer = this.#server?.requestIP(request)?.address;
    if (peer) return peer;
    const header = this.#options.testAddressHeader;
    return (header && request.headers.get(header)?.trim()) || UNKNOWN_CLIENT;
  }
}
