import { UserService } from '../../directory/user-service.js';
import { OidcAccountLinking } from '../../federation/oidc/account-linking.js';
import { clientRepository } from '../../storage/repositories/clients.js';
import { membershipRepository } from '../../storage/repositories/memberships.js';
import { oidcIdentityRepository } from '../../storage/repositories/oidc-identities.js';
import { organizationRepository } from '../../storage/repositories/organizations.js';
import { userRepository } from '../../storage/repositories/users.js';
import { testHashPassword } from '../test-password-hashing.js';
import type { TestSvc } from '../test-svc.js';

/**
 * The OIDC account linking over a test Svc's storage, account claims, domain claims and audit log,
 * accounts created by the directory's UserService as every signup creates them. The app keeps its
 * linking inside the provider sign-in, so the linking's unit tests, and tests that need an account a
 * first provider sign-in created, build it here.
 */
export function oidcAccountLinking(t: TestSvc): OidcAccountLinking {
  const { svc } = t;
  const { db } = svc.database;
  const { clock, ids } = svc.config;
  const users = new UserService({
    repositories: {
      organizations: organizationRepository(db),
      users: userRepository(db),
      memberships: membershipRepository(db),
      clients: clientRepository(db),
    },
    clock,
    ids,
    audit: svc.audit,
    hashPassword: testHashPassword,
  });
  return new OidcAccountLinking({
    identities: oidcIdentityRepository(db),
    accounts: users,
    claims: svc.accountClaims,
    domainClaims: svc.domainClaims,
    audit: svc.audit,
    clock,
    ids,
  });
}
