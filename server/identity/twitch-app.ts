import type { Config } from "../core/config.ts";
import { HelixApi } from "../twitch/helix-api.ts";
import { HelixClient } from "../twitch/helix-client.ts";
import { IdentityProviderClient } from "./idp-client.ts";

/** The Twitch application's credentials (its Client ID, and the secret that proves it). */
export interface TwitchCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * The Twitch application this server speaks as, and the install's owner: set from the config at start,
 * and again by the setup page (identity/setup.ts) while the server runs, so login, chat, alerts and
 * moderation work at once with no restart. Everything that calls Twitch reads the clients from here
 * on each use (the runtime's `ctx.identityProvider`, `ctx.helix` and `ctx.helixApi` are its getters).
 */
export class TwitchApp {
  #identityProvider: IdentityProviderClient | null = null;
  #helix: HelixClient | null = null;
  #helixApi: HelixApi | null = null;
  #owner: string | null;

  constructor(
    private readonly config: Config,
    private readonly now: () => number,
  ) {
    this.#owner = config.owner;
    const { clientId, clientSecret } = config.twitch;
    // A Client-Id alone already reads Helix (app tokens aside); login needs the secret too.
    if (clientId) this.#useClientId(clientId);
    if (clientId && clientSecret) this.#useSecret({ clientId, clientSecret });
  }

  /** Whether login can work: both the Client ID and its secret are known. */
  get configured(): boolean {
    return this.#identityProvider !== null;
  }

  /** The OAuth client, or null when no credentials are configured. */
  get identityProvider(): IdentityProviderClient | null {
    return this.#identityProvider;
  }

  /** The Helix client (it needs the application's Client-Id), or null without one. */
  get helix(): HelixClient | null {
    return this.#helix;
  }

  /** Typed Helix calls for features, over `helix`. */
  get helixApi(): HelixApi | null {
    return this.#helixApi;
  }

  /** The install owner's Twitch login (lower case), whose account is created as Partner; or null. */
  get owner(): string | null {
    return this.#owner;
  }

  /** From now on every call speaks as this application. */
  configure(credentials: TwitchCredentials): void {
    this.#useClientId(credentials.clientId);
    this.#useSecret(credentials);
  }

  /** The owner named at setup (a login, or null for none). */
  setOwner(login: string | null): void {
    this.#owner = login;
  }

  #useClientId(clientId: string): void {
    this.#helix = new HelixClient({ baseUrl: this.config.twitch.apiUrl, clientId, now: this.now });
    this.#helixApi = new HelixApi(this.#helix);
  }

  #useSecret({ clientId, clientSecret }: TwitchCredentials): void {
    this.#identityProvider = new IdentityProviderClient({
      baseUrl: this.config.twitch.authUrl,
      clientId,
      clientSecret,
    });
  }
}
