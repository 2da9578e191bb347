import { afterEach, beforeEach, expect, it } from 'vitest';
import type { OidcAccountLinking } from '../../../federation/oidc/account-linking.js';
import { SvcPublicAuthError } from '../../../kernel/errors.js';
import { describeEachDatabase } from '../../../test-support/databases.js';
import { oidcAccountLinking } from '../../../test-support/federation/account-linking.js';
import { insertConnectionRow } from '../../../test-support/federation/connections.js';
import {
  createInvitationHarness,
  inviteToken,
  type InvitationHarness,
} from '../../../test-support/invitations.js';

const GOOGLE = { id: 'oidc_google', authenticationMethod: 'google', organizationId: null };

/**
 * An invitation is accepted only by the account of the invited address, compared by the email key
 * (docs/decisions/admin-email-identity-ascii-exact.md): an account whose address merely upper-cases to
 * the invited one is another address's.
 */
describeEachDatabase('invitations and look-alike addresses', (kind) => {
  let h: InvitationHarness;
  let linking: OidcAccountLinking;
  let organizationId: string;

  beforeEach(async () => {
    h = await createInvitationHarness(kind);
    const db = h.t.svc.database.db;
    linking = oidcAccountLinking(h.t);
    await insertConnectionRow(db, GOOGLE.id, 'Google');
    organizationId = (await h.t.svc.admin.createOrganizationAsync({ name: 'GitHub' })).id;
  });
  afterEach(() => h.close());

  /** The account a provider signs up for a verified address, as a first provider sign-in creates it. */
  const providerAccount = async (email: string) => {
    const outcome = await linking.resolve(GOOGLE, {
      subject: `sub-${email}`,
      email,
      emailVerified: true,
      displayName: 'Mallory',
      firstName: null,
      lastName: null,
      preferredUsername: null,
    });
    if (outcome.kind !== 'created') throw new Error(`expected a new account, got ${outcome.kind}`);
    return outcome.user;
  };

  const invited = async (email: string) => {
    await h.t.svc.auth.createEmailInvitationAsync({ organizationId, email, role: 'admin' });
    const message = (await h.smtp.waitFor(1))[0];
    if (message === undefined) throw new Error('no invitation email');
    return inviteToken(message.text);
  };

  it('an invitation for ceo@github.test cannot be accepted by the account of ceo@gıthub.test', async () => {
    const mallory = await providerAccount('ceo@gıthub.test');
    const invitationToken = await invited('ceo@github.test');
    await expect(
      h.invitations.acceptEmailInvitation({ invitationToken, userId: mallory.id }),
    ).rejects.toBeInstanceOf(SvcPublicAuthError);
    expect(await h.t.svc.admin.userHasMembershipAsync(mallory.id, organizationId)).toBe(false);
  });

  it('an invitation to an A-label is accepted by the account of the same domain written in Unicode', async () => {
    const ceo = await providerAccount('ceo@bücher.example');
    const invitationToken = await invited('CEO@xn--bcher-kva.example');
    await h.invitations.acceptEmailInvitation({ invitationToken, userId: ceo.id });
    expect(await h.t.svc.admin.userHasMembershipAsync(ceo.id, organizationId)).toBe(true);
  });
});
