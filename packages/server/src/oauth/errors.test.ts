import { describe, expect, it } from 'vitest';
import { SvcError } from '../kernel/errors.js';
import { BASIC_CHALLENGE, OAuthError, oauthError } from './errors.js';

describe('OAuthError', () => {
  it.each<[keyof typeof oauthError, string, number]>([
    ['invalidRequest', 'invalid_request', 400],
    ['invalidClient', 'invalid_client', 401],
    ['invalidGrant', 'invalid_grant', 400],
    ['unauthorizedClient', 'unauthorized_client', 400],
    ['unsupportedGrantType', 'unsupported_grant_type', 400],
    ['unsupportedResponseType', 'unsupported_response_type', 400],
    ['invalidScope', 'invalid_scope', 400],
    ['invalidTarget', 'invalid_target', 400],
    ['accessDenied', 'access_denied', 400],
    ['loginRequired', 'login_required', 400],
    ['consentRequired', 'consent_required', 400],
    ['interactionRequired', 'interaction_required', 400],
    ['authorizationPending', 'authorization_pending', 400],
    ['slowDown', 'slow_down', 400],
    ['expiredToken', 'expired_token', 400],
    ['invalidToken', 'invalid_token', 401],
    ['insufficientScope', 'insufficient_scope', 403],
    ['serverError', 'server_error', 500],
    ['temporarilyUnavailable', 'temporarily_unavailable', 503],
  ])('oauthError.%s → %s, status %d', (name, code, status) => {
    const error = oauthError[name]('Something is wrong.');
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({
      error: code,
      code,
      status,
      description: 'Something is wrong.',
      expose: true,
    });
    expect(error.allowRedirect).toBe(false);
    expect(error.wwwAuthenticate).toBeUndefined();
  });

  it('takes a status, a challenge and an interval', () => {
    const error = oauthError.invalidClient('Client authentication failed.', {
      status: 400,
      wwwAuthenticate: BASIC_CHALLENGE,
    });
    expect(error).toMatchObject({ status: 400, wwwAuthenticate: 'Basic realm="svc"' });
    expect(oauthError.slowDown('Slow down.', { interval: 10 }).interval).toBe(10);
  });

  it('becomes redirectable only on request, keeping everything else', () => {
    const error = oauthError.accessDenied('The user denied the request.', { interval: 5 });
    const redirectable = error.redirectable();
    expect(error.allowRedirect).toBe(false);
    expect(redirectable).toMatchObject({
      allowRedirect: true,
      error: 'access_denied',
      description: 'The user denied the request.',
      status: 400,
      interval: 5,
    });
    expect(oauthError.loginRequired('x', { allowRedirect: true }).allowRedirect).toBe(true);
  });
});
