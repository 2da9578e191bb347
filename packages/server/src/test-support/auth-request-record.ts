import { MINUTE_MS } from '../kernel/clock.js';
import type { AuthRequestRecord } from '../signin/flow/repository.js';

/**
 * A pending authorization request of `web-app` created at `now`, with every optional field filled
 * (long state, scopes, resource, nonce, prompt, login hint, UI context); `overrides` set the rest.
 */
export function authRequestRecord(
  now: number,
  overrides: Partial<AuthRequestRecord> = {},
): AuthRequestRecord {
  return {
    id: `azr_${Math.random().toString(16).slice(2)}`,
    clientId: 'web-app',
    redirectUri: 'https://app.example.com/callback?tenant=a',
    state: 'x'.repeat(2048),
    requestedScopes: ['openid', 'email', 'admin'],
    grantedScopes: ['openid', 'email'],
    codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    codeChallengeMethod: 'S256',
    resource: 'https://files.example.com/',
    nonce: 'n-0S6_WzA2Mj',
    prompt: ['login', 'consent'],
    maxAge: 123_456_789_012_345,
    loginHint: 'ada@example.com',
    view: 'svc',
    uiContext: '{"theme":"dark"}',
    browserBinding: 'a'.repeat(64),
    status: 'pending',
    email: null,
    userId: null,
    organizationId: null,
    amr: null,
    authTime: null,
    createdAt: now,
    updatedAt: now,
    expiresAt: now + 30 * MINUTE_MS,
    completedAt: null,
    challenge: null,
    sealedDeviceUserCode: null,
    invitationId: null,
    sessionless: false,
    ...overrides,
  };
}
