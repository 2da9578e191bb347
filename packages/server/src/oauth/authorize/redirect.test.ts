import { describe, expect, it } from 'vitest';
import { buildRedirect, codeRedirect, errorRedirect } from './redirect.js';

const ISSUER = 'https://id.example.com/svc/auth';

describe('buildRedirect', () => {
  it.each<[string, string, Record<string, string | null | undefined>, string]>([
    ['adds a query', 'https://app.example.com/cb', { code: 'c1' }, 'https://app.example.com/cb?code=c1'],
    [
      'keeps the registered query exactly (RFC 6749 §3.1.2)',
      'https://app.example.com/cb?tenant=a%20b&x=~',
      { code: 'c1' },
      'https://app.example.com/cb?tenant=a%20b&x=~&code=c1',
    ],
    [
      'handles a trailing ?',
      'https://app.example.com/cb?',
      { code: 'c1' },
      'https://app.example.com/cb?code=c1',
    ],
    [
      'handles a trailing &',
      'https://app.example.com/cb?a=1&',
      { code: 'c1' },
      'https://app.example.com/cb?a=1&code=c1',
    ],
    [
      'works for private-use schemes',
      'com.example.app:/oauth2redirect',
      { code: 'c1' },
      'com.example.app:/oauth2redirect?code=c1',
    ],
    [
      'works for loopback with a port',
      'http://127.0.0.1:53117/cb',
      { code: 'c1' },
      'http://127.0.0.1:53117/cb?code=c1',
    ],
    [
      'leaves out null and undefined values',
      'https://a.example/cb',
      { code: 'c', state: null, scope: undefined },
      'https://a.example/cb?code=c',
    ],
    ['keeps an empty string value', 'https://a.example/cb', { scope: '' }, 'https://a.example/cb?scope='],
    [
      'returns the URI untouched without parameters',
      'https://a.example/cb?x=1',
      {},
      'https://a.example/cb?x=1',
    ],
    ['keeps a fragment last', 'https://a.example/cb#frag', { code: 'c' }, 'https://a.example/cb?code=c#frag'],
    [
      'percent-encodes reserved characters',
      'https://a.example/cb',
      { state: 'a b&c=d/é#?+' },
      'https://a.example/cb?state=a%20b%26c%3Dd%2F%C3%A9%23%3F%2B',
    ],
  ])('%s', (_name, uri, params, expected) => {
    expect(buildRedirect(uri, params)).toBe(expected);
  });

  it('round-trips every value through URLSearchParams', () => {
    const state = 'a b&c=d/é#?+%20"<>\'';
    const url = new URL(buildRedirect('https://a.example/cb?tenant=t', { code: 'c', state }));
    expect(url.searchParams.get('tenant')).toBe('t');
    expect(url.searchParams.get('state')).toBe(state);
  });
});

describe('codeRedirect', () => {
  it('carries code, state, the granted scope and iss (RFC 9207)', () => {
    const url = new URL(
      codeRedirect(
        { redirectUri: 'https://a.example/cb', state: 's1' },
        'code-1',
        ['openid', 'email'],
        ISSUER,
      ),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      code: 'code-1',
      state: 's1',
      scope: 'openid email',
      iss: ISSUER,
    });
  });

  it('omits state when none was sent and scope when nothing was granted', () => {
    const url = new URL(
      codeRedirect({ redirectUri: 'https://a.example/cb', state: null }, 'code-1', [], ISSUER),
    );
    expect([...url.searchParams.keys()]).toEqual(['code', 'iss']);
  });
});

describe('errorRedirect', () => {
  it('carries error, error_description, state and iss', () => {
    const url = new URL(
      errorRedirect(
        { redirectUri: 'https://a.example/cb?x=1', state: 's1' },
        'access_denied',
        'Denied.',
        ISSUER,
      ),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      x: '1',
      error: 'access_denied',
      error_description: 'Denied.',
      state: 's1',
      iss: ISSUER,
    });
  });

  it('omits state when none was sent', () => {
    const url = new URL(
      errorRedirect(
        { redirectUri: 'https://a.example/cb', state: null },
        'login_required',
        'Sign in.',
        ISSUER,
      ),
    );
    expect(url.searchParams.has('state')).toBe(false);
  });
});
