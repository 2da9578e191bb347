import type { SvcCreatedClient } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { expect, it } from 'vitest';
import { authenticatorCode } from '../../test-support/authenticator-app.js';
import { authorizeQuery, CLIENT_REDIRECT_URI, pkcePair } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import type { SamlPeer } from '../../test-support/federation/saml-peer.js';
import {
  givenActiveDomainClaim,
  givenSsoConnection,
  postToAcs,
  useSamlSuite,
} from '../../test-support/federation/sso-connections.js';
import { HOSTED_PASSWORD, uniqueName, type HostedTestApp } from '../../test-support/hosted-test-app.js';
import { InjectBrowser, setCookies } from '../../test-support/inject-browser.js';
import { organizationMfaPolicy } from '../../test-support/mfa.js';

/**
 * Login CSRF through SAML (RFC 6749 §10.12, RFC 9700 §4.7): an attacker signs in at the IdP through a
 * flow they started themselves and has the victim's browser post the signed answer to the ACS. The
 * victim's browser must never end up with the attacker's issuer session, and its own must stay.
 */
describeAboveStorage('a SAML answer posted from a browser that did not start its flow', (kind) => {
  let h: HostedTestApp;
  let peer: SamlPeer;
  let web: SvcCreatedClient;

  useSamlSuite(kind, (suite) => ({ h, peer, web } = suite));

  /** A browser signed in on the hosted pages as a new password user, and that user's id. */
  async function victimBrowser(): Promise<{ b: InjectBrowser; userId: string; session: string }> {
    const user = await h.given.user();
    const b = new InjectBrowser(h);
    const done = await b.signIn(await b.authorize(authorizeQuery(web.clientId)), user.email, HOSTED_PASSWORD);
    expect(InjectBrowser.location(done).searchParams.get('code')).toBeTruthy();
    return { b, userId: user.id, session: b.cookies.get('svc_session') ?? '' };
  }

  /** Who `b`'s issuer session signs in silently (its ID token's sub), or the error of prompt=none. */
  async function silentlySignedIn(b: InjectBrowser): Promise<string> {
    const { verifier, challenge } = pkcePair();
    const answer = await b.authorize(
      authorizeQuery(web.clientId, { prompt: 'none', scope: 'openid' }, challenge),
    );
    const back = InjectBrowser.location(answer);
    const error = back.searchParams.get('error');
    if (error !== null) return error;
    const tokens = await h.redeem(back, web.clientId, verifier);
    return String(decodeJwt(tokens.idToken ?? '').sub);
  }

  /**
   * A new SSO domain's connection (of a new organization, which claims the domain: its connection
   * provisions no other address) and the attacker's address there.
   */
  async function attackerAddress(settings: { requireMfa?: boolean } = {}): Promise<string> {
    const domain = `${uniqueName('evil').toLowerCase()}.test`;
    const connection = await givenSsoConnection(h.t, peer, undefined, { primaryDomain: domain });
    await givenActiveDomainClaim(h.t, connection.organizationId, domain);
    if (settings.requireMfa === true) {
      await h.t.svc.admin.updateOrganizationMfaPolicyAsync(
        connection.organizationId,
        organizationMfaPolicy({ requireMfaForAllUsers: true }),
      );
    }
    return `mallory@${domain}`;
  }

  /** The attacker's app-initiated start, answered by the IdP for the attacker: the signed post. */
  async function attackerAnswer(email: string, kind: 'sso-authorization' | 'request-token') {
    const request = {
      email,
      clientId: web.clientId,
      redirectUri: CLIENT_REDIRECT_URI,
      state: uniqueName('attacker-state'),
      codeChallenge: pkcePair().challenge,
      codeChallengeMethod: 'S256' as const,
    };
    const started =
      kind === 'sso-authorization'
        ? await h.t.svc.sso.createAuthorizationUrlAsync(request)
        : await h.t.svc.sso.startAuthorizationAsync(request);
    return peer.signIn(started.authorizationUrl, { email });
  }

  /** The issuer sessions of the user with this address (none for an address without an account). */
  async function browserSessionsOf(email: string): Promise<unknown[]> {
    return h.t.svc.database.db
      .selectFrom('browserSessions')
      .innerJoin('users', 'users.id', 'browserSessions.userId')
      .select('browserSessions.id')
      .where('users.email', '=', email)
      .execute();
  }

  /** The victim's browser posts the attacker's answer and follows Svc's redirects. */
  async function postedFrom(b: InjectBrowser, post: Awaited<ReturnType<typeof attackerAnswer>>) {
    const acs = await postToAcs(h, peer, post);
    expect(acs.statusCode).toBe(303);
    return b.follow(await b.get(InjectBrowser.location(acs).href));
  }

  const setsSession = (response: LightMyRequestResponse) =>
    setCookies(response).some((cookie) => cookie.name === 'svc_session');

  it('POST /sso/authorization-url: the answer neither replaces nor ends the victim’s issuer session', async () => {
    const victim = await victimBrowser();
    const email = await attackerAddress();
    const landed = await postedFrom(victim.b, await attackerAnswer(email, 'sso-authorization'));
    // The code goes to the app's redirect URI with the attacker's state, which the app refuses.
    expect(InjectBrowser.location(landed).href.startsWith(CLIENT_REDIRECT_URI)).toBe(true);
    expect(setsSession(landed)).toBe(false);
    expect(victim.b.cookies.get('svc_session')).toBe(victim.session);
    expect(await silentlySignedIn(victim.b)).toBe(victim.userId);
    expect(await browserSessionsOf(email)).toEqual([]);
  });

  it('POST /sso/authorization-url with MFA: neither the MFA step nor its completion touches the victim’s session', async () => {
    const victim = await victimBrowser();
    const email = await attackerAddress({ requireMfa: true });
    const enroll = await postedFrom(victim.b, await attackerAnswer(email, 'sso-authorization'));
    expect(enroll.statusCode).toBe(200);
    expect(await silentlySignedIn(victim.b)).toBe(victim.userId);

    const secret = /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(enroll.body)?.[1]?.replaceAll(' ', '');
    const codes = await victim.b.post('/mfa/totp/enroll/verify', {
      code: authenticatorCode(secret ?? '', h.t.clock.now()),
    });
    expect(codes.statusCode).toBe(200);
    expect(setsSession(codes)).toBe(false);
    expect(victim.b.cookies.get('svc_session')).toBe(victim.session);
    expect(await silentlySignedIn(victim.b)).toBe(victim.userId);
    expect(await browserSessionsOf(email)).toEqual([]);
  });

  it('the request-token flow: a temporary code for the app, the victim’s session untouched', async () => {
    const victim = await victimBrowser();
    const email = await attackerAddress();
    const landed = await postedFrom(victim.b, await attackerAnswer(email, 'request-token'));
    expect(InjectBrowser.location(landed).searchParams.get('code')).toBeTruthy();
    expect(setsSession(landed)).toBe(false);
    expect(await silentlySignedIn(victim.b)).toBe(victim.userId);
    expect(await browserSessionsOf(email)).toEqual([]);
  });

  it('a hosted SAML sign-in the attacker started continues only in the attacker’s browser', async () => {
    const victim = await victimBrowser();
    const email = await attackerAddress();
    const attacker = new InjectBrowser(h);
    await attacker.follow(await attacker.authorize(authorizeQuery(web.clientId)));
    const toIdp = InjectBrowser.location(await attacker.post('/login/identify', { email }));
    const acs = await postToAcs(h, peer, await peer.signIn(toIdp.href, { email }));

    const refused = await victim.b.get(InjectBrowser.location(acs).href);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('This sign-in is no longer valid');
    expect(setsSession(refused)).toBe(false);
    expect(await silentlySignedIn(victim.b)).toBe(victim.userId);
    expect(await browserSessionsOf(email)).toEqual([]);
  });
});
