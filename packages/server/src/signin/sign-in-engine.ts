import type { SvcOrganizationOption } from '@svc/contract';
import { SvcPublicAuthError } from '../kernel/errors.js';
import type { MfaGate } from './mfa-gate.js';
import type { ApplicationAccess } from '../applications/application-access.js';
import type { NarrowOrganizations, OrganizationPolicy } from './organization-policy.js';
import type { PendingAuthTokens } from './pending-auth-tokens.js';
import type { ResumeData } from './repository.js';
import type { SignedInIdentity } from './signed-in-identity.js';

/** An authenticated user at a client, ready for the organization policy. */
export interface SignInRequest {
  readonly userId: string;
  /** The OAuth client_id the sign-in is for. */
  readonly clientId: string;
  /** SvcPasswordLoginRequest.OrganizationId and the like: "if set, skips organization selection". */
  readonly requestedOrganizationId: string | null;
  /** RFC 8176 methods of this authentication, for example ['pwd']. */
  readonly amr: readonly string[];
  /** Epoch milliseconds of the authentication. */
  readonly authTime: number;
  /**
   * The adapter that runs the sign-in: 'direct', 'authorize' (hosted), 'headless'…. A pending token can
   * be continued only by the same flow, so a hosted sign-in's token can never buy tokens at a direct helper.
   */
  readonly flow: string;
  /** Whatever the caller needs to finish after a pending step (for example `{ authRequestId }`). */
  readonly resume?: ResumeData | null;
}

/**
 * The login state machine (docs/reference/sign-in.md "The login result"), independent of any adapter:
 *
 * - `organization_selection`: several organizations and none chosen; continue with
 *   {@link SignInEngine.selectOrganization} and the pending token (single use, 10 minutes)
 * - `complete`: terminal; the caller mints tokens (direct helpers) or issues an authorization code
 *   (hosted and headless /authorize flows)
 *
 * - `mfa`: the MFA policy or the user's own authenticator asks for a second factor (`enrollmentRequired`:
 *   the mfa_enrollment state, an authenticator must be set up first); continue with the MFA service and
 *   the MFA token (single use, 10 minutes), which completes the sign-in
 *
 * MFA is decided in `#afterOrganization`, the one place every path passes once the organization is
 * known, so organization selection can activate it.
 */
export type SignInOutcome =
  | {
      readonly kind: 'organization_selection';
      readonly pendingAuthToken: string;
      readonly expiresAt: number;
      readonly organizations: SvcOrganizationOption[];
      readonly userId: string;
      readonly clientId: string;
    }
  | {
      readonly kind: 'mfa';
      readonly mfaToken: string;
      readonly expiresAt: number;
      readonly enrollmentRequired: boolean;
      readonly methods: string[];
      /** Who signed in and where: completed only when the second factor passes. */
      readonly identity: SignedInIdentity;
    }
  | { readonly kind: 'complete'; readonly identity: SignedInIdentity };

/** A pending organization selection, read without using it (to re-render the choice). */
export interface PendingSelection {
  readonly userId: string;
  readonly clientId: string;
  readonly organizations: SvcOrganizationOption[];
  readonly resume: ResumeData | null;
  readonly expiresAt: number;
}

export interface SelectOrganizationInput {
  readonly pendingAuthToken: string;
  readonly organizationId: string;
  /** The flow continuing the sign-in; must be the one that started it. */
  readonly flow: string;
}

export interface SignInEngineDeps {
  readonly organizations: OrganizationPolicy;
  readonly pending: PendingAuthTokens;
  /** The MFA decision; without it no sign-in asks for a second factor. */
  readonly mfa?: MfaGate;
  /** Application access: the organizations offered are those where the client lets the user in. */
  readonly access?: Pick<ApplicationAccess, 'organizationChoices'>;
}

const ORGANIZATION_SELECTION = 'organization_selection';

/** The answer to an unknown, expired, used or foreign pending token. */
export function invalidPendingTokenError(): SvcPublicAuthError {
  return new SvcPublicAuthError(
    'invalid_token',
    'The sign-in has expired or was already completed; sign in again.',
    400,
  );
}

/**
 * The one sign-in engine behind the direct helpers and the hosted and headless flows. It starts after
 * the user has authenticated (password, OTP, provider…) and decides what follows.
 */
export class SignInEngine {
  readonly #deps: SignInEngineDeps;

  constructor(deps: SignInEngineDeps) {
    this.#deps = deps;
  }

  /** Runs the organization policy for an authenticated user (access_denied 403 for a foreign organization). */
  async signIn(request: SignInRequest): Promise<SignInOutcome> {
    const resume = request.resume ?? null;
    const decision = await this.#deps.organizations.decide(
      request.userId,
      request.requestedOrganizationId,
      this.#narrow(request.clientId, request.userId),
    );
    if (decision.kind === 'selection_required') {
      const { token, expiresAt } = await this.#deps.pending.issue({
        purpose: ORGANIZATION_SELECTION,
        userId: request.userId,
        clientId: request.clientId,
        context: { flow: request.flow, amr: [...request.amr], authTime: request.authTime, resume },
      });
      return {
        kind: 'organization_selection',
        pendingAuthToken: token,
        expiresAt,
        organizations: decision.organizations,
        userId: request.userId,
        clientId: request.clientId,
      };
    }
    return this.#afterOrganization(
      {
        userId: request.userId,
        clientId: request.clientId,
        organizationId: decision.organizationId,
        amr: [...request.amr],
        authTime: request.authTime,
        flow: request.flow,
        resume,
      },
      decision.organizations,
    );
  }

  /** The pending selection behind a token, or undefined when it is not active for this flow. */
  async pendingSelection(pendingAuthToken: string, flow: string): Promise<PendingSelection | undefined> {
    const record = await this.#deps.pending.peek(pendingAuthToken, ORGANIZATION_SELECTION, flow);
    if (record === undefined) return undefined;
    return {
      userId: record.userId,
      clientId: record.clientId,
      organizations: [
        ...(await this.#narrow(
          record.clientId,
          record.userId,
        )(await this.#deps.organizations.options(record.userId))),
      ],
      resume: record.context.resume,
      expiresAt: record.expiresAt,
    };
  }

  /**
   * Continues organization_selection: the token must be active for this flow (else `invalid_token`,
   * 400) and the organization one of the user's active memberships (else access_denied, 403, and the
   * token stays usable so that the page can offer the choice again). Then the token is consumed, once.
   */
  async selectOrganization(input: SelectOrganizationInput): Promise<SignInOutcome> {
    const pending = await this.#deps.pending.peek(input.pendingAuthToken, ORGANIZATION_SELECTION, input.flow);
    if (pending === undefined) throw invalidPendingTokenError();
    await this.#deps.organizations.requireMember(pending.userId, input.organizationId);
    const consumed = await this.#deps.pending.consume(input.pendingAuthToken);
    if (consumed === undefined) throw invalidPendingTokenError();
    return this.#afterOrganization({
      userId: consumed.userId,
      clientId: consumed.clientId,
      organizationId: input.organizationId,
      amr: [...consumed.context.amr],
      authTime: consumed.context.authTime,
      flow: consumed.context.flow,
      resume: consumed.context.resume,
    });
  }

  /** The organizations the client's access rules let the user choose (all, without the rules). */
  #narrow(clientId: string, userId: string): NarrowOrganizations {
    const access = this.#deps.access;
    return (options) =>
      access === undefined ? Promise.resolve(options) : access.organizationChoices(clientId, userId, options);
  }

  /**
   * Every sign-in passes here once its organization is known: the MFA gate decides, from the global and
   * the organization's policy and the user's factors, whether the mfa or mfa_enrollment state (with an
   * MFA token bound to this identity) comes before `complete`. `organizations`: the user's memberships
   * when the organization policy read them in this sign-in.
   */
  async #afterOrganization(
    identity: SignedInIdentity,
    organizations?: readonly SvcOrganizationOption[],
  ): Promise<SignInOutcome> {
    const challenge = (await this.#deps.mfa?.challengeFor(identity, organizations)) ?? null;
    if (challenge === null) return { kind: 'complete', identity };
    return { kind: 'mfa', ...challenge, identity };
  }
}
