import { describe, expect, it } from 'vitest';
import { OAuthError } from '../../errors.js';
import {
  DEVICE_CODE_GRANT,
  parseRegistrationRequest,
  type RegistrationPolicy,
} from './registration-request.js';

const OPEN: RegistrationPolicy = { allowedScopes: [], maxScopeCount: 32, maxScopeLength: 128 };
const CEILING: RegistrationPolicy = { ...OPEN, allowedScopes: ['openid', 'profile', 'notes:read'] };
const REDIRECT = 'https://app.example.com/callback';

/**
 * The OAuth error a body is refused with, as `code: description`; the description holds only what RFC
 * 6749 §5.2 allows, whatever the request quoted.
 */
function refusal(body: unknown, policy = OPEN): string {
  try {
    parseRegistrationRequest(body, policy);
  } catch (error) {
    if (error instanceof OAuthError) {
      expect(error.message).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
      return `${error.code}: ${error.message}`;
    }
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('parseRegistrationRequest', () => {
  it('registers a minimal body as a code-flow public client, with the defaults RFC 7591 names', () => {
    expect(parseRegistrationRequest({ redirect_uris: [REDIRECT] }, OPEN)).toEqual({
      clientName: null,
      redirectUris: [REDIRECT],
      grantTypes: ['authorization_code', 'refresh_token'],
      responseTypes: ['code'],
      scopes: ['openid', 'profile', 'email'],
      clientUri: null,
      logoUri: null,
      softwareId: null,
      softwareVersion: null,
    });
  });

  it('keeps what it understands, drops duplicates, and ignores members it does not know', () => {
    const request = parseRegistrationRequest(
      {
        redirect_uris: [REDIRECT, 'http://127.0.0.1:7777/cb', REDIRECT, 'http://[::1]/cb'],
        client_name: '  Notes  ',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        scope: 'openid  notes:read openid',
        client_uri: 'https://notes.example',
        logo_uri: 'https://notes.example/logo.png',
        software_id: 'notes-cli',
        software_version: '1.2.3',
        contacts: ['ops@notes.example'],
        jwks: { keys: [] },
        software_statement: 'eyJ…',
      },
      CEILING,
    );
    expect(request).toEqual({
      clientName: 'Notes',
      redirectUris: [REDIRECT, 'http://127.0.0.1:7777/cb', 'http://[::1]/cb'],
      grantTypes: ['authorization_code', 'refresh_token'],
      responseTypes: ['code'],
      scopes: ['openid', 'notes:read'],
      clientUri: 'https://notes.example',
      logoUri: 'https://notes.example/logo.png',
      softwareId: 'notes-cli',
      softwareVersion: '1.2.3',
    });
  });

  it('gives every registered client the code flow, and the device grant when asked for', () => {
    const device = parseRegistrationRequest(
      { redirect_uris: [REDIRECT], grant_types: [DEVICE_CODE_GRANT] },
      OPEN,
    );
    expect(device.grantTypes).toEqual(['authorization_code', 'refresh_token', DEVICE_CODE_GRANT]);
    expect(device.responseTypes).toEqual(['code']);
    for (const grantTypes of [[], ['refresh_token'], ['authorization_code', 'authorization_code']]) {
      expect(
        parseRegistrationRequest({ redirect_uris: [REDIRECT], grant_types: grantTypes }, OPEN).grantTypes,
      ).toEqual(['authorization_code', 'refresh_token']);
    }
  });

  it('refuses redirect URIs that are not HTTPS or loopback, or that carry a fragment or user information', () => {
    const cases: [unknown, RegExp][] = [
      [undefined, /^invalid_redirect_uri: redirect_uris: /],
      [[], /^invalid_redirect_uri: redirect_uris: .*give 1 to 20/],
      [Array.from({ length: 21 }, (_, i) => `https://app.example.com/${i}`), /^invalid_redirect_uri/],
      ['https://app.example.com/callback', /^invalid_redirect_uri/],
      [[42], /^invalid_redirect_uri/],
      [['/callback'], /is not an absolute URI/],
      [['http://app.example.com/callback'], /plain http, which is allowed only for loopback hosts/],
      [['com.example.app:/callback'], /must use https \(or http on a loopback address\)/],
      [['javascript:alert(1)'], /must use https/],
      [
        [REDIRECT, 'http://app.example.com/"quoted"'],
        /^invalid_redirect_uri: redirect_uris: entry 2 uses plain http/,
      ],
      [['https://app.example.com/callback#done'], /must not have a fragment/],
      [['https://app.example.com/callback#'], /must not have a fragment/],
      [['https://user:pw@app.example.com/callback'], /must not carry user information/],
      [[`https://app.example.com/${'a'.repeat(2100)}`], /^invalid_redirect_uri/],
    ];
    for (const [redirectUris, expected] of cases) {
      expect(refusal({ redirect_uris: redirectUris }), JSON.stringify(redirectUris)).toMatch(expected);
    }
  });

  it('registers public clients only, with the grant and response types Svc has', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { token_endpoint_auth_method: 'client_secret_basic' },
        /token_endpoint_auth_method: Svc registers public clients only.*not client_secret_basic/,
      ],
      [{ token_endpoint_auth_method: 'private_key_jwt' }, /public clients only/],
      [
        { grant_types: ['client_credentials'] },
        /grant_types: client_credentials is not available to a registered client/,
      ],
      [{ grant_types: ['implicit'] }, /grant_types: implicit is not available/],
      [{ response_types: ['token'] }, /response_types: Svc supports code only/],
      [{ response_types: ['code', 'id_token'] }, /response_types: Svc supports code only/],
      [{ response_types: [] }, /response_types: Svc supports code only/],
      [{ grant_types: ['password'] }, /grant_types: password is not available/],
      [{ grant_types: ['pass\\word'] }, /grant_types: a grant type given is not available/],
    ];
    for (const [extra, expected] of cases) {
      const answer = refusal({ redirect_uris: [REDIRECT], ...extra });
      expect(answer, JSON.stringify(extra)).toMatch(/^invalid_client_metadata: /);
      expect(answer, JSON.stringify(extra)).toMatch(expected);
    }
  });

  it('holds scopes to the ceiling, the limits and the scope-token grammar, and never registers auth:*', () => {
    const ask = (scope: string, policy = OPEN) => refusal({ redirect_uris: [REDIRECT], scope }, policy);
    expect(ask('openid admin', CEILING)).toBe(
      'invalid_client_metadata: scope: admin is not available to registered clients; they may have openid profile notes:read.',
    );
    expect(ask('auth:operator')).toBe(
      'invalid_client_metadata: scope: auth:operator is reserved and cannot be registered.',
    );
    expect(ask(Array.from({ length: 33 }, (_, i) => `s${i}`).join(' '))).toMatch(/at most 32 scopes/);
    expect(ask('x'.repeat(129))).toMatch(/is not a scope .*at most 128 characters/);
    expect(ask('say"hi"')).toMatch(/is not a scope/);
    expect(ask('tab\there')).toMatch(/is not a scope/);
    // Without a ceiling, any scope within the limits is registered as asked.
    expect(parseRegistrationRequest({ redirect_uris: [REDIRECT], scope: 'admin x' }, OPEN).scopes).toEqual([
      'admin',
      'x',
    ]);
  });

  it('registers a client that names no scope with the ceiling, or without one with the standard OpenID scopes', () => {
    const without = { redirect_uris: [REDIRECT] };
    expect(parseRegistrationRequest(without, CEILING).scopes).toEqual(['openid', 'profile', 'notes:read']);
    expect(parseRegistrationRequest(without, OPEN).scopes).toEqual(['openid', 'profile', 'email']);
    // An empty scope is a client that asks for none.
    expect(parseRegistrationRequest({ ...without, scope: '' }, CEILING).scopes).toEqual([]);
    expect(parseRegistrationRequest({ ...without, scope: ' ' }, OPEN).scopes).toEqual([]);
  });

  it('refuses metadata of the wrong type or shape, naming the field', () => {
    const cases: [unknown, RegExp][] = [
      [null, /must be a JSON object/],
      [[{ redirect_uris: [REDIRECT] }], /must be a JSON object/],
      ['text', /must be a JSON object/],
      [{ redirect_uris: [REDIRECT], client_name: 5 }, /^invalid_client_metadata: client_name: /],
      [{ redirect_uris: [REDIRECT], client_name: '   ' }, /^invalid_client_metadata: client_name: /],
      [
        { redirect_uris: [REDIRECT], client_name: 'a\u0000b' },
        /client_name: must not contain control characters/,
      ],
      [
        { redirect_uris: [REDIRECT], client_name: 'n'.repeat(201) },
        /^invalid_client_metadata: client_name: /,
      ],
      [{ redirect_uris: [REDIRECT], scope: ['openid'] }, /^invalid_client_metadata: scope: /],
      [
        { redirect_uris: [REDIRECT], grant_types: 'authorization_code' },
        /^invalid_client_metadata: grant_types: /,
      ],
      [{ redirect_uris: [REDIRECT], client_uri: 'http://notes.example' }, /client_uri: must be an https URL/],
      [
        { redirect_uris: [REDIRECT], logo_uri: 'data:image/png;base64,AAAA' },
        /logo_uri: must be an https URL/,
      ],
      [
        { redirect_uris: [REDIRECT], client_uri: 'https://u:p@notes.example' },
        /client_uri: must not carry user information/,
      ],
      [{ redirect_uris: [REDIRECT], software_id: {} }, /^invalid_client_metadata: software_id: /],
    ];
    for (const [body, expected] of cases) expect(refusal(body), JSON.stringify(body)).toMatch(expected);
  });
});
