import type { Clock } from "../clock.ts";
import { ClientIpResolver } from "../http/client-ip.ts";
import type { Logger } from "../log.ts";
import { AccountQuotas } from "./account-quotas.ts";
import { type FailedAuthLimiter, IpQuotas } from "./ip-quotas.ts";

/**
 * Every limiter of one server, made once per context (`ctx.limits`). Kept behind this one object so
 * it can move to a shared store when cuebot outgrows one machine (DESIGN.md, "Scale").
 */
export interface RateLimits {
  /** Bot, heavy and panel quotas per account. */
  accounts: AccountQuotas;
  /** Anonymous, public-page and /auth limits per address. */
  perIp: IpQuotas;
  /** Failed authentications per address; the auth layer records each failure here. */
  failedAuth: FailedAuthLimiter;
  /** The client address of a request (socket or trusted proxy), as the per-IP limits saw it. */
  clientIp: ClientIpResolver;
}

export interface RateLimitOptions {
  clock: Clock;
  log: Logger;
  trustProxy: boolean | readonly string[];
  /** Tests only; see ClientIpOptions.testAddressHeader. */
  testAddressHeader?: string;
  /** Addresses remembered per per-IP limit. */
  maxIpKeys?: number;
}

export function createRateLimits(options: RateLimitOptions): RateLimits {
  const perIp = new IpQuotas({ clock: options.clock, maxKeys: options.maxIpKeys });
  return {
    accounts: new AccountQuotas(options.clock),
    perIp,
    failedAuth: perIp.failedAuth,
    clientIp: new ClientIpResolver({
      trustProxy: options.trustProxy,
      log: options.log,
      testAddressHeader: options.testAddressHeader,
    }),
  };
}
