import { describe, expect, it } from 'vitest';
import { toOAuthTokenResponse, type IssuedTokens } from './issued-tokens.js';

const issued = (scope: readonly string[] | null): IssuedTokens => ({
  accessToken: 'at',
  tokenType: 'Bearer',
  refreshToken: 'rt',
  sessionId: 'ses_1',
  clientId: 'web',
  organizationId: null,
  scope,
  expiresIn: 900,
  accessTokenExpiresAt: 0,
  refreshTokenExpiresAt: 0,
});

describe('the token response says the granted scope (RFC 6749 §5.1)', () => {
  it('always, so that a grant narrower than the request is said, an empty one as ""', () => {
    expect(toOAuthTokenResponse(issued(['openid', 'profile']))).toMatchObject({ scope: 'openid profile' });
    expect(toOAuthTokenResponse(issued([]))).toMatchObject({ scope: '' });
  });

  it('except for a session created before granted scope was recorded, whose grant is unknown', () => {
    expect(toOAuthTokenResponse(issued(null))).not.toHaveProperty('scope');
  });
});
