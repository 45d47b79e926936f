/**
 * The gateway's OAuth client for one remote server, the SDK's `OAuthClientProvider`: the SDK runs
 * discovery, dynamic client registration, PKCE and the token requests; this supplies the client's
 * metadata, keeps state in the token store, refreshes an access token before it expires, and decides
 * what a browser step means. Serving an agent (no `interactive`), it never opens a browser: a step that
 * needs the user throws NeedsAuthError. Run by `gateway-mcp auth` (`interactive` set), it opens one and
 * starts afresh: it reads only what this run registered and received (a client registered earlier names
 * another loopback port), keeps it in memory, and writes it over what was stored only when `commit()` is
 * called, once the tokens have worked: a failed run leaves the store as it was.
 * @module
 */
import {
  auth,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthTokens,
} from "../../../lib/mcp/sdk_client.ts";
import type { RemoteTransport } from "../types.ts";
import { NeedsAuthError } from "./needs_auth.ts";
import { isCodeExchange, refusalText } from "./code_refusal.ts";
import type { StoredAuth, StoredTokens, TokenOwner, TokenStore } from "./token_store.ts";

/** An access token this close to its expiry is refreshed before use. */
export const REFRESH_MARGIN_MS = 60_000;

/** How many of the credentials it handled a provider remembers for redaction. */
const KNOWN_SECRETS = 16;

/** The browser step, for `gateway-mcp auth` only. */
export interface InteractiveStep {
  /** The loopback address the authorization server redirects to. */
  redirectUrl: string;
  /** Opens the authorization URL for the user (the platform's browser opener, or a test's fetch). */
  open(url: URL): Promise<void>;
}

/** What a provider is built from. */
export interface ProviderOptions {
  /** The config name: for messages, and with the config file and URL, whose tokens these are. */
  server: string;
  serverUrl: string;
  /** The config file the entry is written in (absolute). */
  configFile?: string;
  store: TokenStore;
  oauth: RemoteTransport["oauth"];
  interactive?: InteractiveStep;
  now?: () => number;
  fetch?: typeof fetch;
}

/** The state the SDK's discovery hands back between its steps (kept for this process only). */
type DiscoveryState = Parameters<NonNullable<OAuthClientProvider["saveDiscoveryState"]>>[0];

/** One remote server's OAuth client. */
export class GatewayOAuthProvider implements OAuthClientProvider {
  readonly #options: ProviderOptions;
  readonly #now: () => number;
  #verifier = "";
  #state = "";
  #discovery?: DiscoveryState;
  #refreshing?: Promise<void>;
  #inRefresh = false;
  /** The refresh token of the tokens last handed to the SDK: only those may be dropped as refused. */
  #handedRefresh?: string;
  /** Interactive runs read this run's state only. */
  #run: StoredAuth = {};
  /** The tokens last handed to the SDK or saved: what the gateway's redaction must know. */
  #known = new Set<string>();
  /** While a code is exchanged: the SDK must not retry (a code is good for one use). */
  #exchanging = false;

  readonly #owner: TokenOwner;

  constructor(options: ProviderOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#owner = {
      ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
      server: options.server,
      url: options.serverUrl,
    };
  }

  get redirectUrl(): string {
    // Serving, no redirect ever happens; the URL only keeps the SDK on the authorization-code flow.
    return this.#options.interactive?.redirectUrl ?? "http://127.0.0.1/callback";
  }

  get clientMetadata(): OAuthClientMetadata {
    const { clientSecret, scope } = this.#options.oauth;
    return {
      client_name: "continue-mcp gateway",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: clientSecret ? "client_secret_post" : "none",
      ...(scope ? { scope } : {}),
    };
  }

  /** The `state` sent with the authorization request; the loopback listener checks it came back. */
  state(): string {
    this.#state ||= crypto.randomUUID();
    return this.#state;
  }

  /** The state of this run's authorization request ("" before one was made). */
  get expectedState(): string {
    return this.#state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { clientId, clientSecret } = this.#options.oauth;
    if (clientId) return { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) };
    const stored = (await this.#read()).client;
    this.#remember(undefined, stored);
    // Serving with no client yet: registering one is the first step of a browser flow, not ours to start.
    if (!stored && !this.#options.interactive) throw new NeedsAuthError(this.#options.server);
    return stored;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    this.#run = { ...this.#run, client };
    this.#remember(undefined, client);
    if (this.#options.interactive) return; // kept until commit()
    await this.#options.store.update(this.#owner, (stored) => ({ ...stored, client }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    let tokens = (await this.#read()).tokens;
    if (tokens?.refresh_token && !this.#inRefresh && this.#expiring(tokens)) {
      await this.refresh();
      tokens = (await this.#read()).tokens;
    }
    this.#handedRefresh = tokens?.refresh_token;
    this.#remember(tokens);
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expiresAt = tokens.expires_in === undefined
      ? {}
      : { expires_at: this.#now() + tokens.expires_in * 1000 };
    const stamped = { ...tokens, ...expiresAt };
    this.#run = { ...this.#run, tokens: stamped };
    this.#remember(stamped);
    if (this.#options.interactive) return; // kept until commit()
    await this.#options.store.update(this.#owner, (stored) => ({ ...stored, tokens: stamped }));
  }

  /**
   * Trades the browser's authorization code for tokens, sending it once: the SDK's auth() would send it
   * again after a refusal (and show the second refusal, "unknown code"). Throws with the first refusal.
   */
  async exchangeCode(code: string): Promise<void> {
    const base = this.#options.fetch ?? fetch;
    const exchange: { refusal?: string } = {};
    const fetchFn: typeof fetch = async (input, init) => {
      const response = await base(input, init);
      if (!response.ok && isCodeExchange(init)) {
        exchange.refusal = await refusalText(response.clone(), this.secrets());
      }
      return response;
    };
    this.#exchanging = true;
    try {
      await auth(this, { serverUrl: this.#options.serverUrl, authorizationCode: code, fetchFn });
    } catch (error) {
      if (exchange.refusal === undefined) throw error;
      throw new Error(
        `The authorization server refused the authorization code: ${exchange.refusal}; start again`,
        { cause: error },
      );
    } finally {
      this.#exchanging = false;
    }
  }

  /** Writes this interactive run's client and tokens over what was stored for the entry. */
  async commit(): Promise<void> {
    const { client, tokens } = this.#run;
    await this.#options.store.update(this.#owner, () => ({
      ...(client ? { client } : {}),
      ...(tokens ? { tokens } : {}),
    }));
  }

  /** Trades the refresh token for new tokens now (calls in parallel share one refresh). */
  refresh(): Promise<void> {
    this.#refreshing ??= (async () => {
      this.#inRefresh = true;
      try {
        await auth(this, { serverUrl: this.#options.serverUrl, ...this.#fetchOption() });
      } finally {
        this.#inRefresh = false;
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (!this.#options.interactive) throw new NeedsAuthError(this.#options.server);
    await this.#options.interactive.open(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.#verifier) throw new Error("No PKCE code verifier: the authorization was not started here");
    return this.#verifier;
  }

  saveDiscoveryState(state: DiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): DiscoveryState | undefined {
    return this.#discovery;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    // The SDK's retry after a refused code would send the code again: end the exchange here instead.
    if (this.#exchanging) throw new Error("The authorization code was refused");
    if (scope === "verifier") this.#verifier = "";
    if (scope === "discovery") this.#discovery = undefined;
    if (scope !== "all" && scope !== "client" && scope !== "tokens") return;
    this.#run = scope === "tokens"
      ? { client: this.#run.client }
      : scope === "client"
      ? { tokens: this.#run.tokens }
      : {};
    if (this.#options.interactive) return;
    await this.#options.store.update(this.#owner, (stored) => {
      // Another gateway (another editor window) may have refreshed meanwhile: keep tokens we did not use.
      const replaced = scope === "tokens" && stored.tokens?.refresh_token !== this.#handedRefresh;
      return {
        ...(scope === "all"
          ? {}
          : scope === "tokens"
          ? { client: stored.client }
          : { tokens: stored.tokens }),
        ...(replaced ? { tokens: stored.tokens } : {}),
      };
    });
  }

  /** The credentials this provider has handed out or received (tokens, client secret): never to be shown. */
  secrets(): string[] {
    return [...this.#known];
  }

  #remember(tokens: OAuthTokens | undefined, client?: OAuthClientInformationMixed): void {
    const values = [tokens?.access_token, tokens?.refresh_token, tokens?.id_token, client?.client_secret];
    for (const value of values) {
      if (!value) continue;
      this.#known.delete(value);
      this.#known.add(value);
    }
    // Refreshes add two a time: keep the recent ones (an old token is as likely to be echoed as a new one
    // only for a short while after its replacement).
    for (const old of this.#known) if (this.#known.size > KNOWN_SECRETS) this.#known.delete(old);
  }

  async #read(): Promise<StoredAuth> {
    return this.#options.interactive ? this.#run : await this.#options.store.read(this.#owner);
  }

  #expiring(tokens: StoredTokens): boolean {
    return tokens.expires_at !== undefined && tokens.expires_at - REFRESH_MARGIN_MS <= this.#now();
  }

  #fetchOption(): { fetchFn?: typeof fetch } {
    return this.#options.fetch ? { fetchFn: this.#options.fetch } : {};
  }
}
