import type { MembershipLifecycle } from '../directory/membership-lifecycle.js';
import type { MembershipService } from '../directory/membership-service.js';
import type { AccountTieRepository } from '../directory/account-ties-repository.js';
import type { MembershipRepository, UserRepository } from '../directory/repository.js';
import type { UnverifiedAccountClaim } from '../directory/unverified-account-claim.js';
import type { UserLifecycle } from '../directory/user-lifecycle.js';
import type { UserService } from '../directory/user-service.js';
import { emailLookupKey } from '../directory/email-key.js';
import { SvcConflictError } from '../kernel/errors.js';
import { addressClaimedBy } from '../organizations/domains/claimed-address.js';
import type { DomainClaims } from '../organizations/domains/domain-claims.js';
import type { ScimAccounts } from './accounts.js';

export interface ScimAccountsOverAdminDeps {
  readonly users: UserService;
  readonly userLifecycle: UserLifecycle;
  readonly memberships: MembershipService;
  readonly membershipLifecycle: MembershipLifecycle;
  readonly membershipRepository: MembershipRepository;
  /** The account rows an address or an id finds. */
  readonly userRows: Pick<UserRepository, 'findByEmailKey' | 'findById'>;
  /** Who else holds an account (directory/account-ties-repository.ts). */
  readonly ties: Pick<AccountTieRepository, 'tiesOf'>;
  /** Whose domains are proved: a SCIM-created account's address is verified under its organization's claim. */
  readonly domainClaims: Pick<DomainClaims, 'activeClaimOf'>;
  /** Hands an unverified account to the organization whose domain claim covers its address. */
  readonly accountClaims: Pick<UnverifiedAccountClaim, 'claim'>;
}

/** Svc accounts and memberships through the admin services, so SCIM changes are audited as operators' are. */
export function scimAccountsOverAdmin(deps: ScimAccountsOverAdminDeps): ScimAccounts {
  const { users, userLifecycle, memberships, membershipLifecycle, membershipRepository } = deps;
  const { userRows, ties } = deps;
  return {
    async findUserByEmail(email) {
      const emailKey = emailLookupKey(email);
      const found = emailKey === undefined ? undefined : await userRows.findByEmailKey(emailKey);
      return found === undefined ? undefined : { id: found.id, emailVerified: found.emailVerified };
    },
    async createUser({ displayName, email, organizationId }) {
      // The IdP asserts the address; only the organization's proof of the domain verifies it.
      const emailVerified = await addressClaimedBy(deps.domainClaims, organizationId, email);
      try {
        const user = await users.createPasswordless({
          displayName,
          email,
          phoneE164: null,
          customFields: null,
          emailVerified,
        });
        return user.id;
      } catch (error) {
        if (error instanceof SvcConflictError) return 'taken';
        throw error;
      }
    },
    async updateUser(userId, changes) {
      try {
        await userLifecycle.update(userId, changes);
        return 'updated';
      } catch (error) {
        if (error instanceof SvcConflictError) return 'taken';
        throw error;
      }
    },
    async heldByOthers(userId, { organizationId, connectionId }) {
      return (await ties.tiesOf(userId, { organizationId, scimConnectionId: connectionId })).length > 0;
    },
    async claimUnderDomain(userId, email, { organizationId, connectionId }) {
      const user = await userRows.findById(userId);
      if (user === undefined || !(await addressClaimedBy(deps.domainClaims, organizationId, email))) {
        return false;
      }
      const claimed = await deps.accountClaims.claim(user, { proof: 'scim', connectionId, organizationId });
      return claimed.emailVerified;
    },
    async activateMembership(organizationId, userId) {
      const existing = await membershipRepository.find(organizationId, userId);
      // An existing membership keeps its role: an operator may have made the user an admin.
      if (existing === undefined) await memberships.create({ organizationId, userId, role: 'member' });
      else if (!existing.active) await membershipLifecycle.update(existing.id, { active: true });
    },
    async endMembership(organizationId, userId) {
      const existing = await membershipRepository.find(organizationId, userId);
      if (existing?.active === true) await membershipLifecycle.update(existing.id, { active: false });
    },
  };
}
