import {
  svcChallengeTotpEnrollmentStartRequestSchema,
  svcMfaChallengeVerifyRequestSchema,
  svcTotpEnrollmentStartRequestSchema,
  svcTotpEnrollmentVerifyRequestSchema,
  type SvcChallengeTotpEnrollmentStartRequest,
  type SvcMfaAuthenticator,
  type SvcMfaChallengeVerifyRequest,
  type SvcMfaChallengeVerifyResult,
  type SvcMfaStatus,
  type SvcTotpEnrollmentStartRequest,
  type SvcTotpEnrollmentStartResult,
  type SvcTotpEnrollmentVerifyRequest,
  type SvcTotpEnrollmentVerifyResult,
} from '@svc/contract';
import { SvcValidationError } from '../../../kernel/errors.js';
import { validate } from '../../../kernel/validation.js';
import { toSvcTokenResponse } from '../../../oauth/tokens/issued-tokens.js';
import {
  DIRECT_FLOW,
  directCallOf,
  type CallerContext,
  type DirectCallContext,
  type DirectSignIn,
} from '../../direct-sign-in.js';
import { invalidMfaToken } from './mfa-errors.js';
import type { MfaService } from './mfa-service.js';

/** Where an in-process or direct call comes from (SvcAuthCallContext of the facade). */
export type MfaCallContext = CallerContext;

export interface MfaOperationsDeps {
  readonly mfa: MfaService;
  readonly direct: Pick<DirectSignIn, 'requireFirstPartyClient' | 'issueDirectTokens' | 'lookUpChallenge'>;
}

/**
 * The MFA operations of SvcAuthService and the direct routes (docs/reference/sign-in.md "Multi-factor authentication" VerifyMfaChallengeAsync,
 * StartTotpEnrollmentForChallengeAsync, VerifyTotpEnrollmentAsync, StartTotpEnrollmentAsync,
 * GetMfaStatusAsync, ListMfaAuthenticatorsAsync). An MFA token of the direct flow continues a direct
 * sign-in, whose client must still be first-party (checked before any code is looked at); tokens are
 * issued as for every direct sign-in.
 */
export class MfaOperations {
  readonly #deps: MfaOperationsDeps;

  constructor(deps: MfaOperationsDeps) {
    this.#deps = deps;
  }

  async verifyMfaChallenge(
    request: SvcMfaChallengeVerifyRequest,
    context?: MfaCallContext,
  ): Promise<SvcMfaChallengeVerifyResult> {
    const input = validate(svcMfaChallengeVerifyRequestSchema, request, 'MFA challenge verify request');
    const call = directCallOf('verifyMfaChallengeAsync', context, input.clientSecret);
    const client = await this.#challengeClient(input.mfaToken, call);
    const verified = await this.#deps.mfa.verifyChallenge(input.mfaToken, input.code, {
      flow: DIRECT_FLOW,
      route: call.operation,
    });
    const tokens = await this.#deps.direct.issueDirectTokens(verified.identity, client, call);
    return {
      tokens: toSvcTokenResponse(tokens),
      method: verified.method,
      remainingRecoveryCodes: verified.remainingRecoveryCodes,
    };
  }

  async startTotpEnrollmentForChallenge(
    request: SvcChallengeTotpEnrollmentStartRequest,
    context?: MfaCallContext,
  ): Promise<SvcTotpEnrollmentStartResult> {
    const input = validate(
      svcChallengeTotpEnrollmentStartRequestSchema,
      request,
      'TOTP enrollment start request',
    );
    await this.#challengeClient(
      input.mfaToken,
      directCallOf('startTotpEnrollmentForChallengeAsync', context, input.clientSecret),
    );
    return this.#deps.mfa.startEnrollmentForChallenge(input.mfaToken, input.label, DIRECT_FLOW);
  }

  /** Account self-enrollment of a signed-in user (the host vouches for `userId`). */
  async startTotpEnrollment(
    userId: string,
    request: SvcTotpEnrollmentStartRequest = {},
  ): Promise<SvcTotpEnrollmentStartResult> {
    const input = validate(svcTotpEnrollmentStartRequestSchema, request, 'TOTP enrollment start request');
    return this.#deps.mfa.startSelfEnrollment(validUserId(userId), input.label);
  }

  /**
   * Challenge-bound (with the MFA token: the sign-in completes with tokens) or self-enrollment (without;
   * `tokens` is null).
   */
  async verifyTotpEnrollment(
    request: SvcTotpEnrollmentVerifyRequest,
    context?: MfaCallContext,
  ): Promise<SvcTotpEnrollmentVerifyResult> {
    const input = validate(svcTotpEnrollmentVerifyRequestSchema, request, 'TOTP enrollment verify request');
    const call = directCallOf('verifyTotpEnrollmentAsync', context, input.clientSecret);
    const client = input.mfaToken === null ? null : await this.#challengeClient(input.mfaToken, call);
    // An enrollment token that finds nothing counts against the caller's address, like the MFA token.
    const enrolled = await this.#deps.mfa.verifyEnrollment(
      input,
      { flow: DIRECT_FLOW, route: call.operation },
      (find) => this.#deps.direct.lookUpChallenge(call, find),
    );
    const tokens =
      enrolled.identity === null || client === null
        ? null
        : toSvcTokenResponse(await this.#deps.direct.issueDirectTokens(enrolled.identity, client, call));
    return { authenticatorId: enrolled.authenticatorId, recoveryCodes: enrolled.recoveryCodes, tokens };
  }

  async getMfaStatus(userId: string): Promise<SvcMfaStatus> {
    return this.#deps.mfa.status(validUserId(userId));
  }

  async listMfaAuthenticators(userId: string): Promise<SvcMfaAuthenticator[]> {
    return this.#deps.mfa.listAuthenticators(validUserId(userId));
  }

  async regenerateRecoveryCodes(userId: string): Promise<string[]> {
    return this.#deps.mfa.regenerateRecoveryCodes(validUserId(userId));
  }

  /** The direct sign-in's client behind an MFA token, still first-party (audited rejection otherwise). */
  async #challengeClient(mfaToken: string, call: DirectCallContext) {
    const challenge = await this.#deps.direct.lookUpChallenge(call, () =>
      this.#deps.mfa.peekChallenge(mfaToken, DIRECT_FLOW),
    );
    if (challenge === undefined) throw invalidMfaToken();
    return this.#deps.direct.requireFirstPartyClient(challenge.clientId, call);
  }
}

/** Ids Svc issues are printable ASCII. */
const RECORD_ID = /^[\x21-\x7e]{1,200}$/;

/** A user id the host passes in must look like one (400 otherwise, before any query sees it). */
function validUserId(userId: string): string {
  if (typeof userId !== 'string' || !RECORD_ID.test(userId)) {
    throw new SvcValidationError('Invalid user id: must be the id of a user.', [
      { path: 'userId', message: 'must be the id of a user' },
    ]);
  }
  return userId;
}
