import type { DirectoryRepositories } from '../directory/repository.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { SvcConfig } from '../config/resolve.js';
import type { EmailService } from '../email/email-service.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import { InvitationService } from '../signin/methods/invitation/invitation-service.js';
import { InvitationSignup } from '../signin/methods/invitation/invitation-signup.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { Db } from '../storage/database.js';
import type { HandedOutTokenLimit } from '../ratelimit/handed-out-tokens.js';
import type { DirectSignIn } from '../signin/direct-sign-in.js';
import type { SignupService } from '../signin/signup.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { invitationRepository } from '../storage/repositories/invitations.js';
import { membershipRepository } from '../storage/repositories/memberships.js';
import { organizationRepository } from '../storage/repositories/organizations.js';
import { userRepository } from '../storage/repositories/users.js';

export interface WireInvitationsContext {
  readonly db: Db;
  readonly config: Pick<SvcConfig, 'publicOrigin' | 'authBase' | 'rateLimits'>;
  readonly email: EmailService;
  readonly rateLimiter: RateLimiter;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
  /** Invitation signup creates the account as every signup does and signs the new user in (first-party gate included). */
  readonly signup: SignupService;
  readonly direct: DirectSignIn;
  /** The limit on refused handed-out tokens (invitation links). */
  readonly tokenChecks: HandedOutTokenLimit;
}

/** The invitation operations: operator lifecycle and acceptance, and the signup variant. */
export interface InvitationWiring {
  readonly invitations: InvitationService;
  readonly signup: InvitationSignup;
}

/** Builds the invitation services over the database; the InviteUrl base is `{PublicOrigin}{authBase}`. */
export function wireInvitations(ctx: WireInvitationsContext): InvitationWiring {
  const admin: DirectoryRepositories = {
    organizations: organizationRepository(ctx.db),
    users: userRepository(ctx.db),
    memberships: membershipRepository(ctx.db),
    clients: clientRepository(ctx.db),
  };
  const invitations = new InvitationService({
    invitations: invitationRepository(ctx.db),
    admin,
    email: ctx.email,
    rateLimiter: ctx.rateLimiter,
    sendPolicy: ctx.config.rateLimits.invitationSend,
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
    linkBase: `${ctx.config.publicOrigin}${ctx.config.authBase}`,
    tokenChecks: ctx.tokenChecks,
  });
  const signup = new InvitationSignup({
    invitations,
    signup: ctx.signup,
    direct: ctx.direct,
    clock: ctx.clock,
  });
  return { invitations, signup };
}
