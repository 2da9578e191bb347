import type { AuditLog } from '../audit/audit-log.js';
import { InvitationAcceptance } from '../signin/methods/invitation/invitation-acceptance.js';
import { InvitationBinding } from '../signin/methods/invitation/invitation-binding.js';
import type { InvitationService } from '../signin/methods/invitation/invitation-service.js';
import type { InvitationSignup } from '../signin/methods/invitation/invitation-signup.js';
import type { Clock } from '../kernel/clock.js';
import type { Db } from '../storage/database.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { invitationRepository } from '../storage/repositories/invitations.js';
import { organizationRepository } from '../storage/repositories/organizations.js';
import { userRepository } from '../storage/repositories/users.js';
import type { BrowserSessions } from '../signin/browser-sessions.js';
import type { PasswordAuthenticator } from '../signin/password-authenticator.js';

/** The invitation acceptance of the hosted pages and the binding of authorization requests to invitations. */
export interface InvitationAcceptanceWiring {
  readonly acceptance: InvitationAcceptance;
  readonly binding: InvitationBinding;
}

/**
 * The hosted invitation acceptance over the invitation services and the sign-in engine (passwords,
 * issuer sessions). The signup variant shares InvitationSignup's account creation, without its
 * first-party gate: the hosted page serves the invitation's own link, not a client's call. The binding
 * serves authorization requests that carry an invitation token, over the same acceptance.
 */
export function wireInvitationAcceptance(ctx: {
  readonly db: Db;
  readonly passwords: PasswordAuthenticator;
  readonly browserSessions: BrowserSessions;
  readonly invitations: InvitationService;
  readonly signup: InvitationSignup;
  readonly audit: AuditLog;
  readonly clock: Clock;
}): InvitationAcceptanceWiring {
  const repository = invitationRepository(ctx.db);
  const users = userRepository(ctx.db);
  const acceptance = new InvitationAcceptance({
    invitations: ctx.invitations,
    signup: ctx.signup,
    repository,
    users,
    organizations: organizationRepository(ctx.db),
    clients: clientRepository(ctx.db),
    passwords: ctx.passwords,
    browserSessions: ctx.browserSessions,
    audit: ctx.audit,
    clock: ctx.clock,
  });
  const binding = new InvitationBinding({
    acceptance,
    invitations: ctx.invitations,
    repository,
    users,
    audit: ctx.audit,
  });
  return { acceptance, binding };
}
