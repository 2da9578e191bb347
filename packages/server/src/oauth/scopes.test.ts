import { describe, expect, it } from 'vitest';
import { formatScope, grantScopes, isScopeToken, parseScope } from './scopes.js';

describe('parseScope', () => {
  it.each<[string | null | undefined, string[]]>([
    [undefined, []],
    [null, []],
    ['', []],
    ['   ', []],
    ['openid', ['openid']],
    ['openid profile email', ['openid', 'profile', 'email']],
    // Order is kept, the first occurrence wins.
    ['email openid email profile openid', ['email', 'openid', 'profile']],
    // Runs of spaces and leading/trailing spaces are tolerated.
    ['  openid   profile ', ['openid', 'profile']],
    // Scope tokens are case-sensitive: these are two different scopes.
    ['openid OpenID', ['openid', 'OpenID']],
    // Every RFC 6749 scope-token character is kept.
    [
      'api:read urn:x-y.z/w!#$%&()*+,-./;<=>?@[]^_`{|}~',
      ['api:read', 'urn:x-y.z/w!#$%&()*+,-./;<=>?@[]^_`{|}~'],
    ],
    // Tokens with characters a scope-token cannot hold are dropped, like unknown scopes.
    ['openid "quoted" back\\slash', ['openid']],
    ['openid\tprofile email', ['email']],
    ['openid profilé', ['openid']],
  ])('%j → %j', (raw, expected) => {
    expect(parseScope(raw)).toEqual(expected);
  });
});

describe('isScopeToken', () => {
  it.each([
    ['openid', true],
    ['a', true],
    ['', false],
    ['a b', false],
    ['"', false],
    ['\\', false],
    ['\u007f', false],
    ['é', false],
  ])('%j → %s', (token, expected) => {
    expect(isScopeToken(token)).toBe(expected);
  });
});

describe('grantScopes', () => {
  const allowList = ['openid', 'profile', 'email', 'api:read'];

  it.each<[string, string[], string[], string[]]>([
    ['the intersection, in request order', ['email', 'openid'], allowList, ['email', 'openid']],
    ['unknown scopes are dropped, never rejected', ['openid', 'admin', 'api:write'], allowList, ['openid']],
    ['only unknown scopes → nothing', ['admin'], allowList, []],
    ['an empty allow-list grants nothing', ['openid', 'profile'], [], []],
    ['no requested scope → nothing (no default grant)', [], allowList, []],
    ['openid is not implied by profile or email', ['profile', 'email'], allowList, ['profile', 'email']],
    ['openid is granted only when allowed', ['openid', 'profile'], ['profile'], ['profile']],
    ['duplicates are granted once', ['email', 'email'], allowList, ['email']],
    ['matching is case-sensitive', ['OPENID'], allowList, []],
  ])('%s', (_name, requested, allow, expected) => {
    expect(grantScopes(requested, allow)).toEqual(expected);
  });
});

describe('formatScope', () => {
  it('joins with single spaces and gives an empty string for an empty grant', () => {
    expect(formatScope(['openid', 'email'])).toBe('openid email');
    expect(formatScope(new Set(['profile']))).toBe('profile');
    expect(formatScope([])).toBe('');
  });

  it('round-trips through parseScope', () => {
    const scopes = ['openid', 'api:read', 'email'];
    expect(parseScope(formatScope(scopes))).toEqual(scopes);
  });
});
