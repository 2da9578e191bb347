import { decodeJwt, type JWTPayload } from 'jose';
import { expect } from 'vitest';
import { CLIENT_REDIRECT_URI } from './authorize-params.js';
import type { HostedTestApp, MailedHostedTestApp } from './hosted-test-app.js';
import { inviteToken } from './invitations.js';
import { form } from './oauth-http.js';

/** What an operator's invitation says beside its organization and address. */
export interface InvitationOptions {
  readonly role?: string;
  readonly clientId?: string;
  readonly redirectUri?: string;
}

/**
 * An invitation as an operator creates it (the admin API), and the token of the link mailed to the
 * invited address.
 */
export async function operatorInvitation(
  h: MailedHostedTestApp,
  organizationId: string,
  email: string,
  options: InvitationOptions = {},
): Promise<{ readonly id: string; readonly token: string }> {
  const created = await h.inject({
    method: 'POST',
    url: `/svc/admin/auth/api/organizations/${organizationId}/invitations`,
    headers: h.t.operator,
    payload: { email, role: options.role ?? 'editor', ...options },
  });
  expect(created.statusCode, created.body).toBe(201);
  return { id: created.json<{ id: string }>().id, token: inviteToken(h.smtp.to(email).at(-1)?.text ?? '') };
}

/** Revokes an invitation as an operator does. */
export async function revokeInvitation(h: HostedTestApp, invitationId: string): Promise<void> {
  const revoked = await h.inject({
    method: 'POST',
    url: `/svc/admin/auth/api/invitations/${invitationId}/revoke`,
    headers: h.t.operator,
    payload: {},
  });
  expect(revoked.statusCode, revoked.body).toBe(200);
}

/** The state of an invitation and the membership of a user in an organization, as stored. */
export async function invitationState(
  h: HostedTestApp,
  invitationId: string,
  userId: string | undefined,
): Promise<{ status: string; acceptedUserId: string | null; role: string | undefined }> {
  const db = h.t.svc.database.db;
  const invitation = await db
    .selectFrom('invitations')
    .select(['status', 'acceptedUserId', 'organizationId'])
    .where('id', '=', invitationId)
    .executeTakeFirstOrThrow();
  const membership =
    userId === undefined
      ? undefined
      : await db
          .selectFrom('memberships')
          .select('role')
          .where('organizationId', '=', invitation.organizationId)
          .where('userId', '=', userId)
          .where('active', '=', 1)
          .executeTakeFirst();
  return { status: invitation.status, acceptedUserId: invitation.acceptedUserId, role: membership?.role };
}

/** The code exchanged at POST /token as the public client does: the access token's claims. */
export async function exchangeAtToken(
  h: HostedTestApp,
  clientId: string,
  code: string,
  codeVerifier: string,
): Promise<JWTPayload> {
  const response = await h.inject({
    method: 'POST',
    url: `${h.authBase}/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: CLIENT_REDIRECT_URI,
      code_verifier: codeVerifier,
    }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return decodeJwt(response.json<{ access_token: string }>().access_token);
}
