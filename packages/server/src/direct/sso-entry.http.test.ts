import {
  svcSsoAuthorizationResultSchema,
  svcTokenResponseSchema,
  type SvcCreatedClient,
  type SvcSsoAuthorizationRequest,
  type SvcSsoConnection,
} from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { SAML_REQUEST_CODE_LIFETIME_MS } from '../federation/saml/request-codes.js';
import { SvcMfaRequiredError } from '../kernel/errors.js';
import { DEFAULT_FAILURE_RULES } from '../ratelimit/failure-rules.js';
import { CLIENT_REDIRECT_URI, pkcePair } from '../test-support/authorize-params.js';
import { describeAboveStorage } from '../test-support/databases.js';
import type { SamlPeer } from '../test-support/federation/saml-peer.js';
import {
  givenActiveDomainClaim,
  givenSsoConnection,
  postToAcs,
  useSamlSuite,
} from '../test-support/federation/sso-connections.js';
import { uniqueName, type HostedTestApp } from '../test-support/hosted-test-app.js';
import { InjectBrowser } from '../test-support/inject-browser.js';
import { enrollForChallenge, organizationMfaPolicy, rejectionOf } from '../test-support/mfa.js';
import { form } from '../test-support/oauth-http.js';

/** Each test's own client address: refused exchanges are counted per address. */
let lastAddress = 0;
const nextAddress = () => `10.28.3.${(lastAddress += 1)}`;

/**
 * The SAML entry points of first-party apps, end to end with samlify as the IdP on loopback:
 * `POST /sso/authorization-url` ends in an OAuth authorization code redeemed at `POST /token`; the
 * request-token flow (svc.sso.startAuthorizationAsync) ends in a temporary code redeemed only by
 * `POST /token/exchange` or ExchangeCodeAsync.
 */
describeAboveStorage('SAML entry points of first-party apps', (kind) => {
  let h: HostedTestApp;
  let peer: SamlPeer;
  let web: SvcCreatedClient;

  useSamlSuite(kind, (suite) => ({ h, peer, web } = suite));

  /** An enabled connection of a new organization, for a domain of its own that the organization claims. */
  async function connection(): Promise<SvcSsoConnection & { domain: string }> {
    const domain = `${uniqueName('apps').toLowerCase()}.test`;
    const created = await givenSsoConnection(h.t, peer, undefined, { primaryDomain: domain });
    await givenActiveDomainClaim(h.t, created.organizationId, domain);
    return { ...created, domain };
  }

  /** A valid start request for `email` at the web client, and the verifier of its challenge. */
  function startRequest(email: string, fields: Partial<SvcSsoAuthorizationRequest> = {}) {
    const { verifier, challenge } = pkcePair();
    const request = {
      email,
      clientId: web.clientId,
      redirectUri: CLIENT_REDIRECT_URI,
      state: uniqueName('state'),
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      ...fields,
    } satisfies SvcSsoAuthorizationRequest;
    return { request, verifier };
  }

  const post = (path: string, payload: unknown, remoteAddress = nextAddress()) =>
    h.inject({ method: 'POST', url: `${h.authBase}${path}`, payload: payload as object, remoteAddress });

  /** The IdP signs `email` in; its answer goes cross-site to the ACS, then the browser to /saml/continue. */
  async function throughIdp(b: InjectBrowser, authorizationUrl: string, email: string) {
    const acs = await postToAcs(h, peer, await peer.signIn(authorizationUrl, { email }));
    expect(acs.statusCode).toBe(303);
    return b.follow(await b.get(InjectBrowser.location(acs).href));
  }

  /** The app's redirect URI with the answer's parameters. */
  function atApp(response: LightMyRequestResponse): URL {
    expect(response.statusCode).toBe(303);
    const location = InjectBrowser.location(response);
    expect(`${location.origin}${location.pathname}`).toBe(CLIENT_REDIRECT_URI);
    return location;
  }

  const tokenRequest = (code: string, verifier: string, redirectUri = CLIENT_REDIRECT_URI) =>
    h.inject({
      method: 'POST',
      url: `${h.authBase}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        client_id: web.clientId,
      }),
    });

  /** The request-token flow up to the app's redirect: the code, the state and the start's verifier. */
  async function requestTokenCode(email: string) {
    const { request, verifier } = startRequest(email);
    const started = await h.t.svc.sso.startAuthorizationAsync(request);
    const back = atApp(await throughIdp(new InjectBrowser(h), started.authorizationUrl, email));
    expect(back.searchParams.get('state')).toBe(request.state);
    return { code: back.searchParams.get('code') ?? '', verifier, request };
  }

  /** How the session of an access token was authenticated (direct access tokens carry no amr). */
  async function sessionAmr(sessionId: string | undefined): Promise<unknown> {
    const row = await h.t.svc.database.db
      .selectFrom('sessions')
      .select('amrJson')
      .where('id', '=', sessionId ?? '')
      .executeTakeFirst();
    return row === undefined ? undefined : (JSON.parse(row.amrJson) as unknown);
  }

  const exchangeBody = (code: string, verifier: string, fields: Record<string, unknown> = {}) => ({
    code,
    clientId: web.clientId,
    redirectUri: CLIENT_REDIRECT_URI,
    codeVerifier: verifier,
    ...fields,
  });

  describe('POST /sso/authorization-url', () => {
    it("starts the email's organization's IdP; the answer reaches the app with a code redeemed only at POST /token", async () => {
      const sso = await connection();
      const email = `ada@${sso.domain}`;
      const { request, verifier } = startRequest(email);
      const started = await post('/sso/authorization-url', request);
      expect(started.statusCode).toBe(200);
      expect(started.headers['cache-control']).toBe('no-store');
      const result = svcSsoAuthorizationResultSchema.strict().parse(started.json());
      const organization = await h.t.svc.admin.getOrganizationAsync(sso.organizationId);
      expect(result).toMatchObject({
        organizationId: sso.organizationId,
        organizationName: organization.name,
        primaryDomain: sso.domain,
      });
      const idp = new URL(result.authorizationUrl);
      expect(`${idp.origin}${idp.pathname}`).toBe(peer.ssoUrl);

      const b = new InjectBrowser(h);
      const back = atApp(await throughIdp(b, result.authorizationUrl, email));
      expect(back.searchParams.get('state')).toBe(request.state);
      const code = back.searchParams.get('code') ?? '';

      // Not a request-token code: /token/exchange refuses it (and does not use it up).
      const atExchange = await post('/token/exchange', exchangeBody(code, verifier));
      expect(atExchange.statusCode).toBe(400);
      expect(atExchange.json()).toMatchObject({ error: 'invalid_grant' });

      const tokens = await tokenRequest(code, verifier);
      expect(tokens.statusCode).toBe(200);
      const body = tokens.json<{ access_token: string; id_token: string }>();
      const claims = decodeJwt(body.id_token);
      expect(claims.amr).toEqual(['fed']);
      expect(await h.t.svc.admin.getUserAsync(String(claims.sub))).toMatchObject({ email });
      const validated = await h.t.svc.auth.validateAccessTokenAsync(
        body.access_token,
        'https://api.example.com',
      );
      expect(validated).toMatchObject({ organizationId: sso.organizationId, clientId: web.clientId });
      // The app started the flow, not this browser: no issuer session starts in it.
      expect(b.cookies.has('svc_session')).toBe(false);
    });

    it('refuses a client that is not first-party or unknown with invalid_client, before anything else is read', async () => {
      const sso = await connection();
      const thirdParty = await h.given.client({ isFirstParty: false });
      for (const clientId of [thirdParty.clientId, 'no-such-client']) {
        for (const fields of [
          {},
          { redirectUri: 'https://elsewhere.example/cb' },
          { email: 'x@nosso.test' },
        ]) {
          const { request } = startRequest(`eve@${sso.domain}`, { clientId, ...fields });
          const refused = await post('/sso/authorization-url', request);
          expect(refused.statusCode).toBe(400);
          expect(refused.json()).toMatchObject({ error: 'invalid_client' });
        }
      }
      const rejected = (await h.auditEvents('oauth.direct_login.rejected')).filter(
        (event) => event.clientId === thirdParty.clientId,
      );
      expect(rejected).toHaveLength(3);
      expect(JSON.parse(rejected[0]?.dataJson ?? '{}')).toMatchObject({
        route: `${h.authBase}/sso/authorization-url`,
      });
    });

    it('refuses a redirect URI differing in case, an email of a domain without SSO, and malformed checks', async () => {
      const sso = await connection();
      const email = `bob@${sso.domain}`;
      const refusal = async (fields: Record<string, unknown>) => {
        const { request } = startRequest(email);
        const answer = await post('/sso/authorization-url', { ...request, ...fields });
        expect(answer.statusCode, JSON.stringify(fields)).toBe(400);
        return answer.json<{ error: string; details?: { path: string }[] }>();
      };
      expect(await refusal({ redirectUri: 'https://app.example.com/Callback' })).toMatchObject({
        error: 'invalid_redirect_uri',
      });
      expect(await refusal({ email: 'carol@no-sso.example.com' })).toMatchObject({
        error: 'sso_not_configured',
      });
      const invalid = [
        { codeChallenge: pkcePair().challenge.slice(0, 42) },
        { codeChallenge: `${pkcePair().challenge}A` },
        { codeChallengeMethod: 'plain' },
        { state: 'x'.repeat(2049) },
        { state: '' },
        { state: undefined },
      ];
      for (const fields of invalid) {
        const body = await refusal(fields);
        expect(body.error).toBe('invalid_request');
        expect(new Set(body.details?.map((detail) => detail.path))).toEqual(new Set(Object.keys(fields)));
      }
      // The longest state docs/reference/limits.md "Sizes and lengths" allows is fine.
      const { request } = startRequest(email, { state: 'x'.repeat(2048) });
      expect((await post('/sso/authorization-url', request)).statusCode).toBe(200);
    });

    it("applies the organization's MFA policy after the IdP: the second factor comes before any code", async () => {
      const sso = await connection();
      await h.t.svc.admin.updateOrganizationMfaPolicyAsync(
        sso.organizationId,
        organizationMfaPolicy({ requireMfaForAllUsers: true }),
      );
      const email = `mfa.app@${sso.domain}`;
      const { request } = startRequest(email);
      const started = svcSsoAuthorizationResultSchema.parse(
        (await post('/sso/authorization-url', request)).json(),
      );
      const b = new InjectBrowser(h);
      const step = await throughIdp(b, started.authorizationUrl, email);
      expect(step.statusCode).toBe(200);
      expect(step.body).toContain('authenticator app');
      expect(b.cookies.has('svc_session')).toBe(false);
    });
  });

  describe('the request-token flow', () => {
    it('sends the app a temporary code that POST /token/exchange redeems once for tokens, and POST /token never', async () => {
      const sso = await connection();
      const { code, verifier } = await requestTokenCode(`dora@${sso.domain}`);

      const atToken = await tokenRequest(code, verifier);
      expect(atToken.statusCode).toBe(400);
      expect(atToken.json()).toMatchObject({ error: 'invalid_grant' });

      const exchanged = await post('/token/exchange', exchangeBody(code, verifier));
      expect(exchanged.statusCode).toBe(200);
      expect(exchanged.headers['cache-control']).toBe('no-store');
      const tokens = svcTokenResponseSchema.strict().parse(exchanged.json());
      expect(tokens).toMatchObject({ clientId: web.clientId, organizationId: sso.organizationId });
      const validated = await h.t.svc.auth.validateAccessTokenAsync(
        tokens.accessToken,
        'https://api.example.com',
      );
      expect(await sessionAmr(validated?.sessionId)).toEqual(['fed']);
      const [succeeded] = (await h.auditEvents('oauth.direct_login.succeeded')).filter(
        (event) => event.userId === validated?.userId,
      );
      expect(JSON.parse(succeeded?.dataJson ?? '{}')).toEqual({
        route: `${h.authBase}/token/exchange`,
        method: 'saml',
      });

      const replay = await post('/token/exchange', exchangeBody(code, verifier));
      expect(replay.statusCode).toBe(400);
      expect(replay.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('ExchangeCodeAsync in process; a wrong verifier or redirect URI is refused without burning the code', async () => {
      const sso = await connection();
      const { code, verifier } = await requestTokenCode(`erin@${sso.domain}`);
      const address = nextAddress();
      for (const fields of [
        { codeVerifier: pkcePair().verifier },
        { redirectUri: 'https://app.example.com/CALLBACK' },
        { redirectUri: 'https://app.example.com/callback/' },
      ]) {
        const refused = await post('/token/exchange', exchangeBody(code, verifier, fields), address);
        expect(refused.statusCode, JSON.stringify(fields)).toBe(400);
        expect(refused.json()).toMatchObject({ error: 'invalid_grant' });
      }
      const tokens = await h.t.svc.sso.exchangeCodeAsync(exchangeBody(code, verifier));
      expect(tokens.organizationId).toBe(sso.organizationId);
      const again = await rejectionOf(h.t.svc.sso.exchangeCodeAsync(exchangeBody(code, verifier)));
      expect(again).toMatchObject({ error: 'invalid_grant', status: 400 });
    });

    it('refuses an expired code', async () => {
      const sso = await connection();
      const { code, verifier } = await requestTokenCode(`fay@${sso.domain}`);
      h.t.clock.advance(SAML_REQUEST_CODE_LIFETIME_MS);
      const expired = await post('/token/exchange', exchangeBody(code, verifier));
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('is first-party only: any other client is invalid_client before the code is looked at', async () => {
      const sso = await connection();
      const thirdParty = await h.given.client({ isFirstParty: false });
      const { code, verifier, request } = await requestTokenCode(`gil@${sso.domain}`);
      for (const clientId of [thirdParty.clientId, 'no-such-client']) {
        const refused = await post('/token/exchange', exchangeBody(code, verifier, { clientId }));
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({ error: 'invalid_client' });
      }
      const refusedStart = await rejectionOf(
        h.t.svc.sso.startAuthorizationAsync({ ...request, clientId: thirdParty.clientId }),
      );
      expect(refusedStart).toMatchObject({ error: 'invalid_client', status: 400 });
      // The code is still good for its own client.
      expect((await post('/token/exchange', exchangeBody(code, verifier))).statusCode).toBe(200);
    });

    it('counts refused codes per client address across requests: past the limit even a good code waits', async () => {
      const sso = await connection();
      const { code, verifier } = await requestTokenCode(`hal@${sso.domain}`);
      const address = nextAddress();
      for (let guess = 0; guess < DEFAULT_FAILURE_RULES.tokenIp.threshold; guess += 1) {
        const refused = await post('/token/exchange', exchangeBody(`guess-${guess}`, verifier), address);
        expect(refused.statusCode).toBe(400);
      }
      const throttled = await post('/token/exchange', exchangeBody(code, verifier), address);
      expect(throttled.statusCode).toBe(429);
      expect(throttled.json()).toMatchObject({ error: 'too_many_attempts' });
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
      // Another address is not held back.
      expect((await post('/token/exchange', exchangeBody(code, verifier))).statusCode).toBe(200);
    });

    it("applies the organization's MFA policy at the exchange: mfa_required with the MFA token, then tokens after the second factor", async () => {
      const sso = await connection();
      await h.t.svc.admin.updateOrganizationMfaPolicyAsync(
        sso.organizationId,
        organizationMfaPolicy({ requireMfaForAllUsers: true }),
      );
      const { code, verifier } = await requestTokenCode(`ida@${sso.domain}`);
      const answer = await post('/token/exchange', exchangeBody(code, verifier));
      expect(answer.statusCode).toBe(403);
      const body = answer.json<{ error: string; mfaToken: string; requiresMfaEnrollment: boolean }>();
      expect(body).toMatchObject({ error: 'mfa_required', requiresMfaEnrollment: true });
      const enrolled = await enrollForChallenge(h.t.svc.auth, h.t.clock, body.mfaToken);
      const tokens = enrolled.result.tokens;
      expect(tokens?.organizationId).toBe(sso.organizationId);
      const validated = await h.t.svc.auth.validateAccessTokenAsync(
        tokens?.accessToken ?? '',
        'https://api.example.com',
      );
      expect(await sessionAmr(validated?.sessionId)).toEqual(expect.arrayContaining(['fed', 'mfa']));

      // In process, the same state is an SvcMfaRequiredError.
      const second = await requestTokenCode(`ida@${sso.domain}`);
      const error = await rejectionOf(
        h.t.svc.sso.exchangeCodeAsync(exchangeBody(second.code, second.verifier)),
      );
      expect(error).toBeInstanceOf(SvcMfaRequiredError);
      expect(error).toMatchObject({ status: 403, requiresMfaEnrollment: false });
      expect((error as SvcMfaRequiredError).mfaMethods).toContain('totp');
    });
  });
});
