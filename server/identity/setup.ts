// The first run finished in the browser (CONTRACT §2): while Twitch is not configured, `serve` prints
// a one-time setup link; its page posts the Twitch application's credentials (and the owner), which are
// stored as `cuebot init` stores them and used at once, with no restart. The routes: routes-setup.ts.
import { timingSafeEqual } from "node:crypto";
import { ConfigError, readStoredConfig, type StoredConfig, twitchLoginOf } from "../core/config.ts";
import { writeConfigFile } from "../core/data-dir.ts";
import { randomToken } from "../core/secrets.ts";
import type { TwitchApp } from "./twitch-app.ts";

/**
 * The setup link's token: 32 random bytes (base64url), made at each start and kept in memory only;
 * spent by a finished setup (none is needed after it).
 */
export class SetupLink {
  #token: string | null = randomToken(32);

  /** The token while it can still be used. */
  get token(): string | null {
    return this.#token;
  }

  /** Whether `candidate` is the live token, compared in constant time. */
  accepts(candidate: unknown): boolean {
    if (this.#token === null || typeof candidate !== "string") return false;
    const expected = Buffer.from(this.#token);
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  spend(): void {
    this.#token = null;
  }
}

/** The setup form's fields, by their form names. */
export const SETUP_FIELDS = ["token", "client_id", "client_secret", "owner"] as const;
export type SetupFieldName = (typeof SETUP_FIELDS)[number];
export type SetupForm = Partial<Record<SetupFieldName, string>>;

/** What the form gave, checked. */
export interface SetupValues {
  clientId: string;
  clientSecret: string;
  /** A Twitch login, lower case, or null when none was given. */
  owner: string | null;
}

/** Why the form was refused: the field, and a sentence for the person who filled it in. */
export interface SetupProblem {
  field: SetupFieldName;
  /** Shown beside the field. */
  reason: string;
}

/** The problem in one sentence that names the field (the `bad_request` message). */
export const problemMessage = (problem: SetupProblem): string => `${problem.field}: ${problem.reason}`;

/** Twitch's ids and secrets are 30 characters; anything far beyond is a paste gone wrong. */
const MAX_CREDENTIAL_LENGTH = 128;

/** The form's text fields from a parsed body (form or JSON); anything not a string is left out. */
export function setupFormOf(body: unknown): SetupForm {
  const form: SetupForm = {};
  if (typeof body !== "object" || body === null) return form;
  for (const name of SETUP_FIELDS) {
    const value = (body as Record<string, unknown>)[name];
    if (typeof value === "string") form[name] = value;
  }
  return form;
}

function credentialProblem(
  field: SetupFieldName,
  label: string,
  raw: string | undefined,
): SetupProblem | null {
  const value = raw?.trim() ?? "";
  if (value === "") return { field, reason: `paste the ${label} from the Twitch console.` };
  if (/\s/.test(value)) return { field, reason: `a ${label} has no spaces; copy it again.` };
  if (value.length > MAX_CREDENTIAL_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    return { field, reason: `this is not a ${label}; copy it again from the Twitch console.` };
  }
  return null;
}

/** The form's values, or the first field that is wrong (the token is checked apart, before). */
export function checkSetupForm(form: SetupForm): SetupValues | SetupProblem {
  const problem =
    credentialProblem("client_id", "Client ID", form.client_id) ??
    credentialProblem("client_secret", "Client Secret", form.client_secret);
  if (problem) return problem;
  const ownerText = form.owner?.trim() ?? "";
  const owner = ownerText === "" ? null : twitchLoginOf(ownerText);
  if (ownerText !== "" && !owner) {
    return {
      field: "owner",
      reason: "a Twitch login is 1 to 25 letters, digits or underscores (leave it empty for none).",
    };
  }
  return { clientId: form.client_id!.trim(), clientSecret: form.client_secret!.trim(), owner };
}

export const isSetupProblem = (result: SetupValues | SetupProblem): result is SetupProblem =>
  "field" in result;

export interface SetupContext {
  readonly config: { readonly dataDir: string };
  readonly twitchApp: TwitchApp;
  readonly setupLink: SetupLink | null;
}

/** Whether a setup may run now: Twitch is not configured and the link's token is live. */
export function setupOpen(ctx: SetupContext): boolean {
  return !ctx.twitchApp.configured && ctx.setupLink?.token != null;
}

/**
 * Whether config.json holds Twitch credentials this server has not loaded (`cuebot init` ran beside
 * it): a setup then would replace them, so it changes nothing, as when Twitch is configured.
 */
export function configuredOnDisk(ctx: SetupContext): boolean {
  try {
    const stored = readStoredConfig(ctx.config.dataDir);
    return Boolean(stored.twitchClientId && stored.twitchClientSecret);
  } catch (error) {
    // A config.json being edited by hand holds no credentials this check can see.
    if (error instanceof ConfigError) return false;
    throw error;
  }
}

/**
 * Stores the credentials (and the owner) in config.json beside the settings already there, as `init`
 * writes them, then speaks as that application from now on and spends the link. Synchronous, so two
 * posts at once cannot both pass.
 */
export function finishSetup(ctx: SetupContext, values: SetupValues): void {
  const stored: StoredConfig = {
    ...readStoredConfig(ctx.config.dataDir),
    twitchClientId: values.clientId,
    twitchClientSecret: values.clientSecret,
    ...(values.owner ? { owner: values.owner } : {}),
  };
  writeConfigFile(ctx.config.dataDir, stored);
  ctx.twitchApp.configure(values);
  if (values.owner) ctx.twitchApp.setOwner(values.owner);
  ctx.setupLink?.spend();
}
