import type { Command } from "commander";
import type { FlagValues } from "../../server/core/config.ts";

/** The settings flags `serve` and `init` share (CONTRACT §2). */
export function addSettingsOptions(command: Command): Command {
  return command
    .option("--host <host>", "listen address (default 127.0.0.1)")
    .option("--port <port>", "listen port, 0 for any free port (default 8080)")
    .option("--public-url <url>", "external URL; the OAuth redirect is <url>/auth/callback")
    .option("--twitch-client-id <id>", "identity provider application id")
    .option("--twitch-client-secret <secret>", "identity provider application secret")
    .option(
      "--trust-proxy [list]",
      "read X-Forwarded-For from these peers: alone or true = loopback, else comma-separated addresses/CIDRs",
    )
    .option(
      "--database-url <url>",
      "postgres://… : keep the data in PostgreSQL, for several machines (docs/several-instances.md)",
    )
    .option("--redis-url <url>", "redis://… shared by several instances: limits, overlay updates")
    .option("--log <level>", "debug, info, warn or error (default info)")
    .option("--log-format <format>", "json or pretty (default: pretty on a terminal, else json)");
}

export interface SettingsOptions {
  host?: string;
  port?: string;
  publicUrl?: string;
  twitchClientId?: string;
  twitchClientSecret?: string;
  trustProxy?: boolean | string;
  databaseUrl?: string;
  redisUrl?: string;
  log?: string;
  logFormat?: string;
  /** `init --owner` only. */
  owner?: string;
}

export function flagValues(options: SettingsOptions): FlagValues {
  const flags: FlagValues = {
    host: options.host,
    port: options.port,
    publicUrl: options.publicUrl,
    twitchClientId: options.twitchClientId,
    twitchClientSecret: options.twitchClientSecret,
    trustProxy: options.trustProxy === true ? "true" : options.trustProxy || undefined,
    databaseUrl: options.databaseUrl,
    redisUrl: options.redisUrl,
    log: options.log,
    logFormat: options.logFormat,
    owner: options.owner,
  };
  return Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) as FlagValues;
}
