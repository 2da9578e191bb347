import type {
  SvcChallengeTotpEnrollmentStartInput,
  SvcMfaAuthenticator,
  SvcMfaChallengeVerifyInput,
  SvcMfaChallengeVerifyResult,
  SvcMfaStatus,
  SvcTotpEnrollmentStartInput,
  SvcTotpEnrollmentStartResult,
  SvcTotpEnrollmentVerifyInput,
  SvcTotpEnrollmentVerifyResult,
} from '@svc/contract';
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
 * issued as for every direct sign-in. The requests come parsed from the edge (the facade, a direct route).
 */
export class MfaOperations {
  readonly #deps: MfaOperationsDeps;

  constructor(deps: MfaOperationsDeps) {
    this.#deps = deps;
  }

  async verifyMfaChallenge(
    input: SvcMfaChallengeVerifyInput,
    context?: MfaCallContext,
  ): Promise<SvcMfaChallengeVerifyResult> {
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
    input: SvcChallengeTotpEnrollmentStartInput,
    context?: MfaCallContext,
  ): Promise<SvcTotpEnrollmentStartResult> {
    await this.#challengeClient(
      input.mfaToken,
      directCallOf('startTotpEnrollmentForChallengeAsync', context, input.clientSecret),
    );
    return this.#deps.mfa.startEnrollmentForChallenge(input.mfaToken, input.label, DIRECT_FLOW);
  }

  /** Account self-enrollment of a signed-in user (the host vouches for `userId`). */
  async startTotpEnrollment(
    userId: string,
    input: SvcTotpEnrollmentStartInput,
  ): Promise<SvcTotpEnrollmentStartResult> {
    return this.#deps.mfa.startSelfEnrollment(userId, input.label);
  }

  /**
   * Challenge-bound (with the MFA token: the sign-in completes with tokens) or self-enrollment (without;
   * `tokens` is null).
   */
  async verifyTotpEnrollment(
    input: SvcTotpEnrollmentVerifyInput,
    context?: MfaCallContext,
  ): Promise<SvcTotpEnrollmentVerifyResult> {
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
    return this.#deps.mfa.status(userId);
  }

  async listMfaAuthenticators(userId: string): Promise<SvcMfaAuthenticator[]> {
    return this.#deps.mfa.listAuthenticators(userId);
  }

  async regenerateRecoveryCodes(userId: string): Promise<string[]> {
    return this.#deps.mfa.regenerateRecoveryCodes(userId);
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
