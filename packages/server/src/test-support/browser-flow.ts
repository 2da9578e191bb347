import type { SvcCreatedClient } from '@svc/contract';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import * as oauth from 'oauth4webapi';
import type { Page } from 'playwright-core';
import { HOSTED_PASSWORD } from './hosted-test-app.js';
import type { ServedHostedApp } from './served-hosted-app.js';

/** An authorization the client started: the URL to open, and what it keeps to redeem the code. */
export interface StartedAuthorization {
  readonly url: string;
  readonly verifier: string;
  readonly state: string;
  readonly nonce: string;
}

/** A code redeemed by the client: the token response and its checked ID token. */
export interface RedeemedCode {
  /** The ID token claims oauth4webapi validated (issuer, audience, nonce, times). */
  readonly claims: oauth.IDToken | undefined;
  /** The same ID token's payload, its signature verified against the JWKS (RS256 only). */
  readonly payload: JWTPayload;
  readonly result: oauth.TokenEndpointResponse;
}

/**
 * oauth4webapi as the public PKCE clients of a served app: discovery and the JWKS once, authorization
 * URLs as a client builds them, and the redemption of the code the browser brings back to the callback,
 * with every check a real client makes.
 */
export class BrowserTestClient {
  readonly #served: ServedHostedApp;
  readonly #jwks: ReturnType<typeof createLocalJWKSet>;
  /** The discovered authorization server metadata. */
  readonly as: oauth.AuthorizationServer;

  private constructor(
    served: ServedHostedApp,
    as: oauth.AuthorizationServer,
    jwks: ReturnType<typeof createLocalJWKSet>,
  ) {
    this.#served = served;
    this.as = as;
    this.#jwks = jwks;
  }

  /** Discovery and the JWKS of `served`, fetched over its back channel. */
  static async discover(served: ServedHostedApp): Promise<BrowserTestClient> {
    const options = backChannel(served);
    const issuer = new URL(served.issuer);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options));
    const keys = await served.fetch(as.jwks_uri ?? '', {
      method: 'GET',
      headers: {},
      body: undefined,
      redirect: 'manual',
    });
    return new BrowserTestClient(served, as, createLocalJWKSet((await keys.json()) as JSONWebKeySet));
  }

  /** oauth4webapi's options for the back channel (the served app's fetch, plain http on loopback). */
  get options() {
    return backChannel(this.#served);
  }

  /** A registered client as oauth4webapi sees it: public, PKCE only. */
  client(created: SvcCreatedClient): oauth.Client {
    return { client_id: created.clientId, token_endpoint_auth_method: 'none' };
  }

  /** Whether the browser is back at the clients' callback page. */
  readonly atCallback = (url: URL): boolean => url.toString().startsWith(this.#served.callbackUri);

  /**
   * An authorization URL as the client builds it, with fresh PKCE, state and nonce and the scope
   * `openid profile email`; `params` add or override query parameters (`scope`, `prompt`, `max_age`).
   */
  async authorizationUrl(
    created: SvcCreatedClient,
    params: Readonly<Record<string, string>> = {},
  ): Promise<StartedAuthorization> {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(this.as.authorization_endpoint ?? '');
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: created.clientId,
      redirect_uri: this.#served.callbackUri,
      scope: 'openid profile email',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...params,
    }).toString();
    return { url: url.toString(), verifier, state, nonce };
  }

  /**
   * Waits for the page to reach the callback, then does what the client does there: validates the
   * authorization response, redeems the code at /token, validates the ID token and its signature.
   */
  async redeem(page: Page, created: SvcCreatedClient, flow: StartedAuthorization): Promise<RedeemedCode> {
    await page.waitForURL(this.atCallback);
    const client = this.client(created);
    const params = oauth.validateAuthResponse(this.as, client, new URL(page.url()), flow.state);
    const response = await oauth.authorizationCodeGrantRequest(
      this.as,
      client,
      oauth.None(),
      params,
      this.#served.callbackUri,
      flow.verifier,
      this.options,
    );
    const result = await oauth.processAuthorizationCodeResponse(this.as, client, response, {
      expectedNonce: flow.nonce,
      requireIdToken: true,
    });
    const { payload } = await jwtVerify(result.id_token ?? '', this.#jwks, {
      issuer: this.#served.issuer,
      audience: created.clientId,
      algorithms: ['RS256'],
    });
    return { claims: oauth.getValidatedIdTokenClaims(result), payload, result };
  }
}

function backChannel(served: ServedHostedApp) {
  return { [oauth.customFetch]: served.fetch, [oauth.allowInsecureRequests]: true };
}

/** Waits for the page whose heading this is (a click's navigation may still be under way). */
export async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

/** The identify step: the address, then Continue, up to the password step. */
export async function identify(page: Page, email: string): Promise<void> {
  await heading(page, 'Sign in');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await heading(page, 'Enter your password');
}

/** The password step: the password (HOSTED_PASSWORD unless given), then Sign in. */
export async function enterPassword(page: Page, password = HOSTED_PASSWORD): Promise<void> {
  await heading(page, 'Enter your password');
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A password sign-in from the identify step. */
export async function signInWithPassword(page: Page, email: string, password?: string): Promise<void> {
  await identify(page, email);
  await enterPassword(page, password);
}
