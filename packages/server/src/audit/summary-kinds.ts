import type { AuditSummaryCategory } from '@svc/contract';

/**
 * What the console's overview counts, as `kind` filters of `GET /events`, so that a bar links to exactly
 * the events it counts (docs/reference/events.md "Reading events" says why each kind is in or out):
 * - a sign-in is a completed first authentication: every hosted or headless one, whatever the method
 *   (federated ones included, so `oidc.authorization.completed` and `saml.sign_in.completed` are not
 *   counted again), a direct one, and one on an invitation's page;
 * - a failed sign-in is a refused credential there, or a refused identity provider answer;
 * - a throttled attempt is one the failure limits refused before checking it;
 * - a new user is an account created by any path that records it (all go through the user service).
 */
export const AUDIT_SUMMARY_KINDS: Readonly<Record<AuditSummaryCategory, string>> = {
  signIns: [
    'oauth.hosted_login.succeeded',
    'oauth.direct_login.succeeded',
    'invitation.sign_in.succeeded',
  ].join(','),
  failedSignIns: [
    'oauth.hosted_login.failed',
    'oauth.direct_login.failed',
    'invitation.sign_in.failed',
    'oidc.authorization.failed',
    'saml.response.refused',
    'saml.sign_in.refused',
  ].join(','),
  throttled: [
    'auth.password.throttled',
    'auth.otp.throttled',
    'auth.mfa.throttled',
    'auth.token.throttled',
  ].join(','),
  newUsers: 'admin.user.created',
};
