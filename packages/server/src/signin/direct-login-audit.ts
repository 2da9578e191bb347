import type { AuditLog } from '../audit/audit-log.js';
import type { GateCallContext } from './direct-client-gate.js';

/** A direct sign-in's credential check: who (null: refused), where, and how (`password`, `email_otp`…). */
export interface DirectLoginCheck {
  readonly userId: string | null;
  /** The organization the sign-in names, when it names one. */
  readonly organizationId: string | null;
  readonly method: string;
}

/**
 * `oauth.direct_login.succeeded` with the user as actor, or `.failed` without one (an unknown address
 * must not be told apart), as the hosted steps write theirs: the client, the organization the sign-in
 * names, the caller's address, the route and the method. Never the credential.
 */
export async function recordDirectLogin(
  audit: AuditLog,
  check: DirectLoginCheck,
  clientId: string,
  context: GateCallContext,
): Promise<void> {
  const { userId, organizationId } = check;
  await audit.record({
    kind: userId === null ? 'oauth.direct_login.failed' : 'oauth.direct_login.succeeded',
    actorType: 'user',
    ...(userId === null ? {} : { actorId: userId, userId }),
    clientId,
    ...(organizationId === null ? {} : { organizationId }),
    ...(context.ipAddress == null ? {} : { ipAddress: context.ipAddress }),
    data: { route: context.operation, method: check.method },
  });
}
