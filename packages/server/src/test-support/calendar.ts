import type { LightMyRequestResponse } from 'fastify';
import type { SvcOptions } from '../config/options.js';
import type { Dialect } from '../storage/database.js';
import { authorizeQuery } from './authorize-params.js';
import { createDirectHarness, DIRECT_PASSWORD, type DirectHarness } from './direct-test-app.js';
import type { ConsentChoices } from './federation/loopback-server.js';
import { startMicrosoftPeer, type MicrosoftPeer } from './federation/microsoft-peer.js';
import { startOidcPeer, type OidcPeer } from './federation/oidc-peer.js';
import { InjectBrowser } from './inject-browser.js';
import { TEST_ORIGIN } from './test-svc.js';

/** Svc's calendar callback, as the test connections list it. */
export const CALENDAR_CALLBACK = `${TEST_ORIGIN}/svc/auth/calendar/callback`;
/** Svc's consent page, which a consent's authorization URL opens. */
export const CALENDAR_CONSENT_PAGE = `${TEST_ORIGIN}/svc/auth/calendar/consent`;
/** A page of the test app that the browser returns to (one of its client's redirect URIs). */
export const APP_RETURN = 'https://app.example.com/settings/calendar';
export const GOOGLE_EVENTS = 'https://www.googleapis.com/auth/calendar.events';
export const GOOGLE_READONLY = 'https://www.googleapis.com/auth/calendar.readonly';
export const MICROSOFT_TENANT = '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
/** Access tokens of the test providers live five minutes, so that a test reaches their expiry quickly. */
export const PEER_ACCESS_TOKEN_SECONDS = 300;

const CLIENT = {
  clientId: 'svc-calendar',
  clientSecret: 'calendar-client-secret-0123456789',
  redirectUris: [CALENDAR_CALLBACK],
};

/** A Google-shaped and a Microsoft-shaped provider on loopback that issue refresh tokens as theirs do. */
export interface CalendarPeers {
  readonly google: OidcPeer;
  readonly microsoft: MicrosoftPeer;
  close(): Promise<void>;
}

export async function startCalendarPeers(): Promise<CalendarPeers> {
  const google = await startOidcPeer({
    clients: [CLIENT],
    accounts: [
      { id: 'alice', email: 'alice@gmail.example', emailVerified: true, name: 'Alice' },
      { id: 'bob', email: 'bob@gmail.example', emailVerified: true, name: 'Bob' },
    ],
    shape: 'google',
    extraScopes: [GOOGLE_EVENTS, GOOGLE_READONLY],
    refreshTokens: 'keep',
    accessTokenTtlSeconds: PEER_ACCESS_TOKEN_SECONDS,
  });
  const microsoft = await startMicrosoftPeer({
    clients: [CLIENT],
    tenants: [
      { id: MICROSOFT_TENANT, accounts: [{ id: 'carol', email: 'carol@contoso.example', name: 'Carol' }] },
    ],
    extraScopes: ['Calendars.ReadWrite', 'Calendars.Read'],
    refreshTokens: true,
    accessTokenTtlSeconds: PEER_ACCESS_TOKEN_SECONDS,
  });
  return {
    google,
    microsoft,
    close: async () => {
      await google.close();
      await microsoft.close();
    },
  };
}

/** A first-party session of a new user of the test app. */
export interface CalendarSession {
  readonly refreshToken: string;
  readonly userId: string;
  readonly email: string;
  readonly clientId: string;
  /** A browser signed in on the hosted pages as the same user: where the user consents. */
  readonly browser: InjectBrowser;
}

/**
 * One consent through HTTP: the start's answer, where its link sent the browser (the provider), the
 * provider's callback URL and Svc's answer to it.
 */
export interface CalendarConsentRun {
  readonly start: LightMyRequestResponse;
  readonly providerUrl: URL;
  readonly providerCallback: URL;
  readonly answer: LightMyRequestResponse;
}

export interface CalendarHarness {
  readonly h: DirectHarness;
  readonly peers: CalendarPeers;
  /** The Google and Microsoft connections, listing the calendar callback. */
  readonly connections: { readonly google: string; readonly microsoft: string };
  signedIn(): Promise<CalendarSession>;
  /** A browser signed in on the hosted pages as the user with this address. */
  browserOf(email: string): Promise<InjectBrowser>;
  /**
   * POST /calendar/authorization-url, the authorization URL opened in the session's browser (or
   * `browser`), the user at the provider as `account` (consenting as `choices` say), then GET
   * /calendar/callback with what the provider sent back, in the same browser.
   */
  consent(
    session: CalendarSession,
    provider: 'google' | 'microsoft',
    options?: {
      account?: string;
      choices?: ConsentChoices;
      returnUri?: string;
      scopes?: string[];
      browser?: InjectBrowser;
    },
  ): Promise<CalendarConsentRun>;
  /**
   * Opens a consent's authorization URL in `browser`: where it is sent next (the provider, or back to the
   * app with an error).
   */
  open(browser: InjectBrowser, authorizationUrl: string): Promise<URL>;
  /** GET of a URL Svc answered with (the callback the provider sent the browser to), in `browser`. */
  callback(providerCallback: URL, browser?: InjectBrowser): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * A test Svc of `kind` with calendar connections through the test providers: its clock set to the real
 * time (the providers' ID tokens are checked against it), plain-http loopback providers allowed, a
 * Google and a Microsoft connection, and a first-party app whose redirect URIs include APP_RETURN.
 */
export async function createCalendarHarness(
  kind: Dialect,
  peers: CalendarPeers,
  options: SvcOptions = {},
): Promise<CalendarHarness> {
  const h = await createDirectHarness(kind, { allowInsecureLoopback: true, ...options });
  h.t.clock.set(Date.now());
  const admin = h.t.svc.admin;
  const google = await admin.createOidcConnectionAsync({
    providerType: 'Google',
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.clientSecret,
    discoveryUrl: peers.google.discoveryUrl,
    allowedCallbackUris: [`${TEST_ORIGIN}/svc/auth/oidc/callback`, CALENDAR_CALLBACK],
  });
  const microsoft = await admin.createOidcConnectionAsync({
    providerType: 'Microsoft',
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.clientSecret,
    discoveryUrl: peers.microsoft.discoveryUrlTemplate,
    allowedCallbackUris: [CALENDAR_CALLBACK],
  });
  const app = await h.given.client({ redirectUris: ['https://app.example.com/callback', APP_RETURN] });
  const callback = (providerCallback: URL, browser?: InjectBrowser) =>
    browser === undefined
      ? h.inject({ method: 'GET', url: `${providerCallback.pathname}${providerCallback.search}` })
      : browser.get(providerCallback.href);
  async function browserOf(email: string): Promise<InjectBrowser> {
    const browser = new InjectBrowser(h);
    const done = await browser.signIn(
      await browser.authorize(authorizeQuery(app.clientId)),
      email,
      DIRECT_PASSWORD,
    );
    if (!InjectBrowser.location(done).searchParams.has('code')) throw new Error('no hosted sign-in');
    return browser;
  }
  async function open(browser: InjectBrowser, authorizationUrl: string): Promise<URL> {
    const url = new URL(authorizationUrl);
    if (url.origin !== TEST_ORIGIN) return url;
    return InjectBrowser.location(await browser.get(url.href));
  }
  return {
    h,
    peers,
    connections: { google: google.id, microsoft: microsoft.id },
    async signedIn() {
      const user = await h.given.user();
      const tokens = (await h.login(user.email, app.clientId)).tokens;
      if (tokens === null) throw new Error('no tokens');
      const browser = await browserOf(user.email);
      const { email } = user;
      return { refreshToken: tokens.refreshToken, userId: user.id, email, clientId: app.clientId, browser };
    },
    browserOf,
    open,
    async consent(session, provider, options = {}) {
      const start = await h.post('/calendar/authorization-url', {
        refreshToken: session.refreshToken,
        connectionId: provider === 'google' ? google.id : microsoft.id,
        returnUri: options.returnUri ?? APP_RETURN,
        ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
      });
      if (start.statusCode !== 200) throw new Error(`calendar start failed: ${start.body}`);
      const { authorizationUrl } = start.json<{ authorizationUrl: string }>();
      const browser = options.browser ?? session.browser;
      const peer = provider === 'google' ? peers.google : peers.microsoft;
      const account = options.account ?? (provider === 'google' ? 'alice' : 'carol');
      const providerUrl = await open(browser, authorizationUrl);
      const providerCallback = await peer.signIn(providerUrl.href, account, undefined, options.choices);
      return { start, providerUrl, providerCallback, answer: await callback(providerCallback, browser) };
    },
    callback,
    close: () => h.close(),
  };
}

/** The calendarConnectionId (or error) of a callback answer's redirect. */
export function returnedTo(answer: LightMyRequestResponse): URL {
  const location = answer.headers.location;
  if (answer.statusCode !== 303 || typeof location !== 'string') {
    throw new Error(`expected a redirect, got ${answer.statusCode}: ${answer.body}`);
  }
  return new URL(location);
}
