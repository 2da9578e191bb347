import type { SvcLoginResult } from '@svc/contract';
import type { UserRecord } from '../admin/repository.js';
import type { Clock } from '../kernel/clock.js';
import { toSvcTokenResponse } from '../oauth/tokens/issued-tokens.js';
import type { TokenEngine } from '../oauth/tokens/token-engine.js';
import { DIRECT_FLOW, type DirectCallContext, type DirectSignIn } from '../signin/direct-sign-in.js';
import type { SignInEngine } from '../signin/sign-in-engine.js';

/** Where a call comes from; the same shape SvcAuthService's operations take. */
export interface PasswordlessCallContext {
  readonly route?: string;
  readonly ipAddress?: string | null;
  readonly userAgent?: string | null;
}

/** What finishing a passwordless sign-in needs. */
export interface SignInDirectDeps {
  readonly direct: Pick<DirectSignIn, 'requireFirstPartyClient'>;
  readonly engine: Pick<SignInEngine, 'signIn'>;
  readonly tokens: Pick<TokenEngine, 'sessions'>;
  readonly clock: Clock;
}

const EMPTY_RESULT = {
  requiresOrganizationSelection: false,
  pendingAuthToken: null,
  organizations: [],
  tokens: null,
  requiresMfa: false,
  mfaToken: null,
  requiresMfaEnrollment: false,
  mfaMethods: null,
} satisfies SvcLoginResult;

/**
 * Runs the login state machine for a user whose email was proved, in the direct flow, and shapes the
 * SvcLoginResult exactly as password login does (DirectSignIn): organization selection, or a session
 * granted the client's whole allow-list, bound to no resource, without an ID token.
 */
export async function signInDirect(
  deps: SignInDirectDeps,
  input: { user: UserRecord; clientId: string; organizationId: string | null; amr: string },
  call: DirectCallContext,
): Promise<SvcLoginResult> {
  const client = await deps.direct.requireFirstPartyClient(input.clientId, call);
  const outcome = await deps.engine.signIn({
    userId: input.user.id,
    clientId: client.clientId,
    requestedOrganizationId: input.organizationId,
    amr: [input.amr],
    authTime: deps.clock.now(),
    flow: DIRECT_FLOW,
  });
  if (outcome.kind === 'organization_selection') {
    return {
      ...EMPTY_RESULT,
      requiresOrganizationSelection: true,
      pendingAuthToken: outcome.pendingAuthToken,
      organizations: outcome.organizations,
    };
  }
  const tokens = await deps.tokens.sessions.issueForNewSession({
    userId: outcome.identity.userId,
    client,
    organizationId: outcome.identity.organizationId,
    scopes: client.allowedScopes,
    resource: null,
    amr: outcome.identity.amr,
    authTime: outcome.identity.authTime,
    includeIdToken: false,
    userAgent: call.userAgent ?? null,
    ipAddress: call.ipAddress ?? null,
  });
  return { ...EMPTY_RESULT, tokens: toSvcTokenResponse(tokens) };
}

/** The DirectCallContext of an operation: the route when a route calls, else the operation name. */
export function callContext(
  operation: string,
  context: PasswordlessCallContext | undefined,
): DirectCallContext {
  return {
    operation: context?.route ?? operation,
    ipAddress: context?.ipAddress ?? null,
    userAgent: context?.userAgent ?? null,
  };
}

/** The audit event's ipAddress field, when known. */
export function ip(call: DirectCallContext): { ipAddress?: string } {
  return call.ipAddress == null ? {} : { ipAddress: call.ipAddress };
}

/** Epoch ms as the wire's ISO-8601 string. */
export function toIso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
