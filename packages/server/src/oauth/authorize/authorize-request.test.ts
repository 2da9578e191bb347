import { describe, expect, it } from 'vitest';
import { clientRecord, clientFinder } from '../../test-support/client-record.js';
import { s256Challenge } from '../pkce.js';
import { AUTHORIZE_VIEWS } from './authorize-params.js';
import { type AuthorizeParseResult, parseAuthorizeRequest } from './authorize-request.js';

const CHALLENGE = s256Challenge('verifier-verifier-verifier-verifier-verifier-0');
const REDIRECT = 'https://app.example.com/callback';

const client = clientRecord({
  clientId: 'web-app',
  redirectUris: [REDIRECT, 'com.example.app:/oauth2redirect', 'https://app.example.com/cb?tenant=a'],
  allowedScopes: ['openid', 'profile', 'email', 'api:read'],
  audience: 'https://api.example.com',
  allowedResources: ['https://files.example.com/'],
});
const inactive = clientRecord({ clientId: 'old-app', active: false, redirectUris: [REDIRECT] });
const other = clientRecord({ clientId: 'other-app', redirectUris: ['https://other.example.com/cb'] });

/** A valid query; `patch` sets parameters, and `undefined` in it removes one. */
function query(patch: Record<string, string | string[] | undefined> = {}): Record<string, string | string[]> {
  const base: Record<string, string | string[] | undefined> = {
    response_type: 'code',
    client_id: 'web-app',
    redirect_uri: REDIRECT,
    state: 'xyz-state',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...patch,
  };
  return Object.fromEntries(
    Object.entries(base).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined),
  );
}

async function parse(q: unknown): Promise<AuthorizeParseResult> {
  return parseAuthorizeRequest(q, clientFinder(client, inactive, other));
}

async function parseOk(q: unknown) {
  const result = await parse(q);
  if (result.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result.request;
}

/** RFC 6749 §5.2: error_description is %x20-21 / %x23-5B / %x5D-7E. */
const DESCRIPTION_CHARS = /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/;

describe('parseAuthorizeRequest: success', () => {
  it('normalizes a full request', async () => {
    const request = await parseOk(
      query({
        scope: 'openid email admin email',
        resource: 'https://files.example.com/',
        nonce: 'n-0S6_WzA2Mj',
        login_hint: 'ada@example.com',
        prompt: 'login consent',
        max_age: '300',
        view: 'signup',
        ui_context: '{"theme":"dark"}',
        invitation_token: 'inv-token',
        unknown_parameter: 'ignored',
      }),
    );
    expect(request).toEqual({
      client,
      redirectUri: REDIRECT,
      state: 'xyz-state',
      requestedScopes: ['openid', 'email', 'admin'],
      grantedScopes: ['openid', 'email'],
      codeChallenge: CHALLENGE,
      codeChallengeMethod: 'S256',
      resource: 'https://files.example.com/',
      nonce: 'n-0S6_WzA2Mj',
      loginHint: 'ada@example.com',
      prompt: new Set(['login', 'consent']),
      maxAge: 300,
      view: 'signup',
      uiContext: '{"theme":"dark"}',
      invitationToken: 'inv-token',
    });
  });

  it('defaults every optional parameter to none', async () => {
    const request = await parseOk(query({ state: undefined }));
    expect(request).toMatchObject({
      state: null,
      requestedScopes: [],
      grantedScopes: [],
      resource: null,
      nonce: null,
      loginHint: null,
      maxAge: null,
      view: null,
      uiContext: null,
      invitationToken: null,
    });
    expect(request.prompt.size).toBe(0);
  });

  it('treats empty optional parameters as omitted (RFC 6749 §3.1)', async () => {
    const request = await parseOk(
      query({ scope: '', resource: '', nonce: '', login_hint: '', prompt: '', max_age: '', view: '' }),
    );
    expect(request).toMatchObject({
      grantedScopes: [],
      resource: null,
      nonce: null,
      maxAge: null,
      view: null,
    });
  });

  it('accepts each registered redirect URI exactly, including a query and a private-use scheme', async () => {
    for (const uri of client.redirectUris) {
      expect((await parseOk(query({ redirect_uri: uri }))).redirectUri).toBe(uri);
    }
  });

  it('keeps the state exactly as sent, up to 2048 characters', async () => {
    for (const state of ['a', 'x'.repeat(2048), 'a b+c/d=é&"<>']) {
      expect((await parseOk(query({ state }))).state).toBe(state);
    }
  });

  it('grants openid only when requested and allowed', async () => {
    expect((await parseOk(query({ scope: 'profile email' }))).grantedScopes).toEqual(['profile', 'email']);
    const noOpenId = clientRecord({ ...client, allowedScopes: ['profile'] });
    const result = await parseAuthorizeRequest(query({ scope: 'openid profile' }), clientFinder(noOpenId));
    expect(result.kind === 'ok' && result.request.grantedScopes).toEqual(['profile']);
  });

  it('grants nothing from an empty allow-list', async () => {
    const empty = clientRecord({ ...client, allowedScopes: [] });
    const result = await parseAuthorizeRequest(query({ scope: 'openid profile' }), clientFinder(empty));
    expect(result.kind === 'ok' && result.request.grantedScopes).toEqual([]);
  });

  it('accepts the audience as the resource', async () => {
    expect((await parseOk(query({ resource: 'https://api.example.com' }))).resource).toBe(
      'https://api.example.com',
    );
  });

  it.each([
    ['none', ['none']],
    ['login', ['login']],
    ['select_account', ['select_account']],
    ['consent', ['consent']],
    [' login  consent login ', ['login', 'consent']],
  ])('parses prompt %j', async (prompt, expected) => {
    expect([...(await parseOk(query({ prompt }))).prompt]).toEqual(expected);
  });

  it.each([
    ['0', 0],
    ['3600', 3600],
    ['007', 7],
  ])('parses max_age %j as %d', async (maxAge, expected) => {
    expect((await parseOk(query({ max_age: maxAge }))).maxAge).toBe(expected);
  });

  it.each(AUTHORIZE_VIEWS)('accepts view %s', async (view) => {
    expect((await parseOk(query({ view }))).view).toBe(view);
  });

  it('reads the invitation token under either name', async () => {
    expect((await parseOk(query({ invitationToken: 'inv' }))).invitationToken).toBe('inv');
    expect((await parseOk(query({ invitation_token: 'inv', invitationToken: 'inv' }))).invitationToken).toBe(
      'inv',
    );
  });

  it('accepts response_mode=query and a synchronous findClient', async () => {
    const result = await parseAuthorizeRequest(query({ response_mode: 'query' }), {
      findClient: () => client,
    });
    expect(result.kind).toBe('ok');
  });

  it('ignores unknown parameters even when repeated', async () => {
    expect((await parse(query({ utm: ['a', 'b'] }))).kind).toBe('ok');
  });
});

describe('parseAuthorizeRequest: errors shown on the hosted error page (never redirected)', () => {
  it.each<[string, unknown, string]>([
    ['no query at all', undefined, 'invalid_request'],
    ['a non-object query', 'client_id=web-app', 'invalid_request'],
    ['client_id missing', query({ client_id: undefined }), 'invalid_request'],
    ['client_id empty', query({ client_id: '' }), 'invalid_request'],
    ['client_id unknown', query({ client_id: 'nope' }), 'invalid_client'],
    ['client_id of another case', query({ client_id: 'WEB-APP' }), 'invalid_client'],
    ['client inactive', query({ client_id: 'old-app' }), 'invalid_client'],
    ['redirect_uri missing', query({ redirect_uri: undefined }), 'invalid_request'],
    ['redirect_uri empty', query({ redirect_uri: '' }), 'invalid_request'],
    ['redirect_uri with a trailing slash', query({ redirect_uri: `${REDIRECT}/` }), 'invalid_request'],
    ['redirect_uri in upper case', query({ redirect_uri: REDIRECT.toUpperCase() }), 'invalid_request'],
    [
      'redirect_uri with another host case',
      query({ redirect_uri: 'https://APP.example.com/callback' }),
      'invalid_request',
    ],
    ['redirect_uri over http', query({ redirect_uri: 'http://app.example.com/callback' }), 'invalid_request'],
    ['redirect_uri with an extra query', query({ redirect_uri: `${REDIRECT}?x=1` }), 'invalid_request'],
    ['redirect_uri with a fragment', query({ redirect_uri: `${REDIRECT}#x` }), 'invalid_request'],
    [
      'redirect_uri percent-encoded',
      query({ redirect_uri: 'https://app.example.com/%63allback' }),
      'invalid_request',
    ],
    ['redirect_uri a prefix', query({ redirect_uri: 'https://app.example.com/call' }), 'invalid_request'],
    [
      'redirect_uri registered only by another client',
      query({ redirect_uri: 'https://other.example.com/cb' }),
      'invalid_request',
    ],
    ['client_id repeated', query({ client_id: ['web-app', 'web-app'] }), 'invalid_request'],
    ['redirect_uri repeated', query({ redirect_uri: [REDIRECT, REDIRECT] }), 'invalid_request'],
    ['state repeated', query({ state: ['a', 'b'] }), 'invalid_request'],
    ['scope repeated', query({ scope: ['openid', 'email'] }), 'invalid_request'],
    ['code_challenge repeated', query({ code_challenge: [CHALLENGE, CHALLENGE] }), 'invalid_request'],
    // A bad client wins over every later error: nothing may reach an untrusted redirect URI.
    [
      'unknown client and bad response_type',
      query({ client_id: 'nope', response_type: 'token' }),
      'invalid_client',
    ],
    [
      'bad redirect_uri and no PKCE',
      query({ redirect_uri: 'https://evil.example/', code_challenge: undefined }),
      'invalid_request',
    ],
  ])('%s → %s', async (_name, q, error) => {
    const result = await parse(q);
    expect(result).toMatchObject({ kind: 'error_page', error });
    expect(result.kind === 'error_page' && result.description).toMatch(DESCRIPTION_CHARS);
  });

  it('never looks up a client_id with controls or beyond 2048 characters', async () => {
    const finder = clientFinder(client);
    for (const clientId of ['web\u0000app', 'web-app\n', 'a'.repeat(2049)]) {
      const result = await parseAuthorizeRequest(query({ client_id: clientId }), finder);
      expect(result).toMatchObject({ kind: 'error_page', error: 'invalid_client' });
    }
    expect(finder.lookups).toEqual([]);
  });
});

describe('parseAuthorizeRequest: plain-http redirect URIs', () => {
  const httpClient = clientRecord({
    clientId: 'http-app',
    redirectUris: [
      'http://app.example.com/cb',
      'http://localhost:3000/cb',
      'http://127.0.0.1:53117/cb',
      'http://[::1]:8080/cb',
      'com.example.app:/cb',
      'https://app.example.com/cb',
    ],
  });

  it.each([
    ['http://app.example.com/cb', false],
    ['http://localhost:3000/cb', true],
    ['http://127.0.0.1:53117/cb', true],
    ['http://[::1]:8080/cb', true],
    ['com.example.app:/cb', true],
    ['https://app.example.com/cb', true],
  ])('with requireTlsRedirects, %s is usable: %s', async (uri, usable) => {
    const result = await parseAuthorizeRequest(query({ client_id: 'http-app', redirect_uri: uri }), {
      findClient: () => httpClient,
      requireTlsRedirects: true,
    });
    expect(result.kind).toBe(usable ? 'ok' : 'error_page');
  });

  it('uses a registered plain-http redirect URI when TLS is not required (development)', async () => {
    const result = await parseAuthorizeRequest(
      query({ client_id: 'http-app', redirect_uri: 'http://app.example.com/cb' }),
      { findClient: () => httpClient },
    );
    expect(result.kind).toBe('ok');
  });
});

describe('parseAuthorizeRequest: errors redirected to the client', () => {
  it.each<[string, Record<string, string | string[] | undefined>, string]>([
    ['response_type missing', { response_type: undefined }, 'invalid_request'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['response_type code id_token', { response_type: 'code id_token' }, 'unsupported_response_type'],
    ['response_type in upper case', { response_type: 'CODE' }, 'unsupported_response_type'],
    ['response_mode fragment', { response_mode: 'fragment' }, 'invalid_request'],
    ['response_mode form_post', { response_mode: 'form_post' }, 'invalid_request'],
    ['code_challenge missing (PKCE required)', { code_challenge: undefined }, 'invalid_request'],
    ['code_challenge empty', { code_challenge: '' }, 'invalid_request'],
    [
      'code_challenge_method missing (plain default refused)',
      { code_challenge_method: undefined },
      'invalid_request',
    ],
    ['code_challenge_method plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['code_challenge_method s256', { code_challenge_method: 's256' }, 'invalid_request'],
    ['code_challenge too short', { code_challenge: CHALLENGE.slice(1) }, 'invalid_request'],
    ['code_challenge too long', { code_challenge: `${CHALLENGE}A` }, 'invalid_request'],
    ['code_challenge with padding', { code_challenge: `${CHALLENGE.slice(1)}=` }, 'invalid_request'],
    ['code_challenge with + and /', { code_challenge: `${CHALLENGE.slice(2)}+/` }, 'invalid_request'],
    ['resource relative', { resource: '/api' }, 'invalid_target'],
    ['resource with a fragment', { resource: 'https://api.example.com#x' }, 'invalid_target'],
    ['resource not allowed', { resource: 'https://other.example.com' }, 'invalid_target'],
    ['resource almost allowed', { resource: 'https://files.example.com' }, 'invalid_target'],
    [
      'resource repeated',
      { resource: ['https://api.example.com', 'https://files.example.com/'] },
      'invalid_target',
    ],
    ['prompt unknown', { prompt: 'consnet' }, 'invalid_request'],
    ['prompt unknown beside a known one', { prompt: 'login bogus' }, 'invalid_request'],
    ['prompt none with login', { prompt: 'none login' }, 'invalid_request'],
    ['prompt none with consent', { prompt: 'consent none' }, 'invalid_request'],
    ['max_age negative', { max_age: '-1' }, 'invalid_request'],
    ['max_age fractional', { max_age: '1.5' }, 'invalid_request'],
    ['max_age not a number', { max_age: 'soon' }, 'invalid_request'],
    ['max_age with a sign', { max_age: '+5' }, 'invalid_request'],
    ['max_age absurdly large', { max_age: '9'.repeat(16) }, 'invalid_request'],
    ['nonce over 512 characters', { nonce: 'n'.repeat(513) }, 'invalid_request'],
    ['nonce with a NUL', { nonce: 'a\u0000b' }, 'invalid_request'],
    ['login_hint over 320 characters', { login_hint: 'h'.repeat(321) }, 'invalid_request'],
    ['login_hint with a line break', { login_hint: 'ada@example.com\r\nX: y' }, 'invalid_request'],
    ['ui_context over 2048 characters', { ui_context: 'u'.repeat(2049) }, 'invalid_request'],
    ['invitation_token over 512 characters', { invitation_token: 't'.repeat(513) }, 'invalid_request'],
    [
      'invitation_token twice with two values',
      { invitation_token: 'a', invitationToken: 'b' },
      'invalid_request',
    ],
    ['view unknown', { view: 'dashboard' }, 'invalid_request'],
    ['view of the headless-only list', { view: 'consent' }, 'invalid_request'],
    ['a request object', { request: 'eyJhbGciOiJub25lIn0.e30.' }, 'request_not_supported'],
    ['a request_uri', { request_uri: 'urn:ietf:params:oauth:request_uri:x' }, 'request_uri_not_supported'],
  ])('%s → %s, state echoed', async (_name, patch, error) => {
    const result = await parse(query(patch));
    expect(result).toMatchObject({
      kind: 'redirect_error',
      error,
      redirectUri: REDIRECT,
      state: 'xyz-state',
    });
    expect(result.kind === 'redirect_error' && result.client).toBe(client);
    expect(result.kind === 'redirect_error' && result.description).toMatch(DESCRIPTION_CHARS);
  });

  it('omits the state when the request had none', async () => {
    const result = await parse(query({ state: undefined, response_type: 'token' }));
    expect(result).toMatchObject({ kind: 'redirect_error', state: null });
  });

  it.each([
    ['empty', ''],
    ['over 2048 characters', 's'.repeat(2049)],
    ['holding a control character', 'abc\u0000'],
  ])('refuses a state that is %s and does not echo it', async (_name, state) => {
    const result = await parse(query({ state }));
    expect(result).toMatchObject({ kind: 'redirect_error', error: 'invalid_request', state: null });
  });

  it('reports the state error before any other error', async () => {
    const result = await parse(query({ state: '', response_type: 'token', code_challenge: undefined }));
    expect(result).toMatchObject({ error: 'invalid_request', state: null });
    expect(result.kind === 'redirect_error' && result.description).toContain('state');
  });

  it('redirects to the very redirect URI that was sent', async () => {
    const uri = 'https://app.example.com/cb?tenant=a';
    const result = await parse(query({ redirect_uri: uri, response_type: 'token' }));
    expect(result).toMatchObject({ kind: 'redirect_error', redirectUri: uri });
  });
});
