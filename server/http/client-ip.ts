import { isIpAddress } from "../limits/ip-key.ts";
import type { Logger } from "../log.ts";

/** What the HTTP server tells about a request's peer (Bun's `server.requestIP`). */
export interface SocketPeer {
  requestIP(request: Request): { address: string } | null;
}

/** The key used when no address can be known (no socket, e.g. `app.handle` without a test header). */
export const UNKNOWN_CLIENT = "unknown";

export interface ClientIpOptions {
  /** CUEBOT_TRUST_PROXY: take the right-most X-Forwarded-For entry instead of the socket address. */
  trustProxy: boolean;
  log: Logger;
  /**
   * Tests only: under `app.handle` there is no socket, so this header names the client address. It is
   * read only when the server reports no peer, and production contexts never set it.
   */
  testAddressHeader?: string;
}

/**
 * Finds the client address a request came from. The socket peer is the truth unless the operator
 * says a reverse proxy stands in front (trustProxy); then the right-most X-Forwarded-For entry is
 * the address that proxy saw — entries further left were written by the client and can be forged.
 * Resolved once per request (in the per-IP limit's onRequest, where the server is at hand) and
 * remembered, so later layers such as failed-authentication counting ask `of(request)`.
 */
export class ClientIpResolver {
  readonly #resolved = new WeakMap<Request, string>();
  readonly #options: ClientIpOptions;

  constructor(options: ClientIpOptions) {
    this.#options = options;
  }

  resolve(request: Request, server: SocketPeer | null | undefined): string {
    const known = this.#resolved.get(request);
    if (known !== undefined) return known;
    const address = this.#find(request, server);
    this.#resolved.set(request, address);
    return address;
  }

  /** The address resolved for this request, or (outside the HTTP pipeline) one found without a socket. */
  of(request: Request): string {
    return this.resolve(request, null);
  }

  #find(request: Request, server: SocketPeer | null | undefined): string {
    const socketAddress = this.#socketAddress(request, server);
    const forwarded = request.headers.get("x-forwarded-for");
    if (forwarded === null) return socketAddress;
    if (!this.#options.trustProxy) {
      this.#options.log.warnOnce(
        "untrusted-x-forwarded-for",
        "a request carried X-Forwarded-For but proxy trust is off, so clients are told apart by the socket address; if cuebot runs behind a reverse proxy, set CUEBOT_TRUST_PROXY=true (or --trust-proxy)",
        { socketAddress },
      );
      return socketAddress;
    }
    const rightMost = forwarded.split(",").at(-1)?.trim() ?? "";
    return isIpAddress(rightMost) ? rightMost : socketAddress;
  }

  #socketAddress(request: Request, server: SocketPeer | null | undefined): string {
    const peer = server?.requestIP(request)?.address;
    if (peer) return peer;
    const header = this.#options.testAddressHeader;
    return (header && request.headers.get(header)?.trim()) || UNKNOWN_CLIENT;
  }
}
