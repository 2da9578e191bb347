import {
  SvcInvalidOperationError,
  SvcPublicAuthError,
  SvcTooManyAttemptsError,
} from '../../../kernel/errors.js';
import type { MfaService } from './mfa-service.js';
import { AUTHORIZE_FLOW, type AuthRequestSteps } from '../../flow/auth-request-steps.js';
import {
  refusedRetry,
  type AuthorizeActionOutcome,
  type AuthorizeStep,
  type BrowserContext,
} from '../../flow/authorize-outcomes.js';
import { authRequestExpiredError } from '../../flow/errors.js';
import type { AuthRequestRecord } from '../../flow/repository.js';
import { signInMethodKey, type SignInMethodKey } from '../../flow/sign-in-method.js';
import type { SignInMethodRegistration } from '../../flow/method-context.js';

declare module '../../flow/authorize-outcomes.js' {
  interface AuthorizeStepKinds {
    /** The second factor: a code of the authenticator app, or a recovery code when offered. */
    mfa_verify: {
      readonly kind: 'mfa_verify';
      readonly request: StepRequest;
      readonly recoveryCodeOffered: boolean;
    };
    /** Forced enrollment: scan the QR code (or type the secret), then confirm with a code. */
    mfa_enroll: {
      readonly kind: 'mfa_enroll';
      readonly request: StepRequest;
      readonly secret: string;
      /** The `otpauth://` URI the QR code encodes, for a UI that renders its own or opens an app. */
      readonly provisioningUri: string;
      readonly qrCodeDataUrl: string;
      /** ISO 8601: when the pending authenticator lapses. */
      readonly expiresAt: string;
    };
    /** After enrollment: the recovery codes, shown once, and where to continue. */
    recovery_codes: {
      readonly kind: 'recovery_codes';
      readonly request: StepRequest;
      readonly codes: readonly string[];
      /** The client's redirect (with the code), or null: the request's current step (consent). */
      readonly continueTo: string | null;
    };
  }
  interface StepErrors {
    mfa_code_invalid: true;
  }
}

/** What the hosted second factor needs of the MFA service (by the MFA token's hash). */
export type HostedMfa = Pick<
  MfaService,
  'peekChallengeHash' | 'verifyChallengeHash' | 'challengeEnrollment' | 'verifyChallengeEnrollment'
>;

/** The routes of the audit trail (the headless actions run the same steps). */
const HOSTED_MFA_OPERATIONS = Object.freeze({
  verify: { flow: AUTHORIZE_FLOW, route: 'hosted /mfa/verify' },
  enroll: { flow: AUTHORIZE_FLOW, route: 'hosted /mfa/totp/enroll/verify' },
});

/**
 * The second factor of a hosted authorization request (docs/reference/sign-in.md "Multi-factor authentication" hosted POST /mfa/verify and
 * /mfa/totp/enroll/verify; the mfa and mfa_enrollment login states). The request in status `mfa` holds
 * the MFA token's hash and its persisted decision (`mfa` or `mfa_enrollment`):
 *
 * | status / challenge | event | next |
 * |---|---|---|
 * | mfa / mfa | a code of the app or an offered recovery code | consent or the code (new issuer session with amr mfa) |
 * | mfa / mfa | wrong code | the same page (400); five wrong codes end the challenge (start again) |
 * | mfa / either | any code while the user is locked (five wrong in 15 minutes) | the same page (429) |
 * | mfa / mfa_enrollment | GET: the QR code and secret of the authenticator being set up | |
 * | mfa / mfa_enrollment | a code of the new authenticator | the recovery codes page, then consent or the code |
 */
export class MfaSteps {
  readonly #mfa: HostedMfa;
  readonly #steps: AuthRequestSteps;

  constructor(deps: { readonly mfa: HostedMfa }, steps: AuthRequestSteps) {
    this.#mfa = deps.mfa;
    this.#steps = steps;
  }

  /** The page of a request in status `mfa`. */
  async step(request: AuthRequestRecord): Promise<AuthorizeStep> {
    const challenge = this.#challenge(request);
    const stepRequest = await this.#steps.stepRequest(request);
    // The challenge lives 10 minutes, the request 30: an expired or completed one means starting again.
    if ((await this.#mfa.peekChallengeHash(challenge.hash, AUTHORIZE_FLOW)) === undefined) {
      throw authRequestExpiredError();
    }
    if (challenge.kind === 'mfa') {
      return {
        kind: 'mfa_verify',
        request: stepRequest,
        recoveryCodeOffered: challenge.target.split(',').includes('recovery_code'),
      };
    }
    const enrollment = await this.#mfa.challengeEnrollment(challenge.hash, AUTHORIZE_FLOW);
    return { kind: 'mfa_enroll', request: stepRequest, ...enrollment };
  }

  /** POST /mfa/verify: a code of the authenticator app or a recovery code. */
  async verify(
    requestId: string | undefined,
    browser: BrowserContext,
    code: string | undefined,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#steps.load(requestId, browser);
    if (request.status !== 'mfa' || request.challenge?.kind !== 'mfa')
      return { kind: 'next', requestId: request.id };
    const retry = async (): Promise<AuthorizeActionOutcome> => ({
      kind: 'retry',
      step: await this.step(request),
      error: 'mfa_code_invalid',
    });
    if (code === undefined || code.trim() === '' || code.length > 64) return retry();
    try {
      const verified = await this.#mfa.verifyChallengeHash(
        request.challenge.hash,
        code,
        HOSTED_MFA_OPERATIONS.verify,
      );
      return await this.#steps.afterSecondFactor(request, browser, verified.identity);
    } catch (error) {
      return this.#failed(error, request, browser, 'mfa', retry);
    }
  }

  /** POST /mfa/totp/enroll/verify: a code of the authenticator being set up; then the recovery codes. */
  async enroll(
    requestId: string | undefined,
    browser: BrowserContext,
    code: string | undefined,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#steps.load(requestId, browser);
    if (request.status !== 'mfa' || request.challenge?.kind !== 'mfa_enrollment') {
      return { kind: 'next', requestId: request.id };
    }
    const retry = async (): Promise<AuthorizeActionOutcome> => ({
      kind: 'retry',
      step: await this.step(request),
      error: 'mfa_code_invalid',
    });
    if (code === undefined || code.trim() === '' || code.length > 64) return retry();
    let enrolled;
    try {
      enrolled = await this.#mfa.verifyChallengeEnrollment(
        request.challenge.hash,
        code,
        HOSTED_MFA_OPERATIONS.enroll,
      );
    } catch (error) {
      return this.#failed(error, request, browser, 'mfa_enrollment', retry);
    }
    if (enrolled.identity === null) throw authRequestExpiredError();
    const continued = await this.#steps.afterSecondFactor(request, browser, enrolled.identity);
    if (enrolled.recoveryCodes.length === 0 || continued.kind === 'retry' || continued.kind === 'show') {
      return continued;
    }
    // The codes are shown once, before the browser moves on (to consent or back to the client).
    return {
      kind: 'show',
      step: {
        kind: 'recovery_codes',
        request: await this.#steps.stepRequest(request),
        codes: enrolled.recoveryCodes,
        continueTo: continued.kind === 'redirect' ? continued.location : null,
      },
      ...(continued.session === undefined ? {} : { session: continued.session }),
    };
  }

  #challenge(request: AuthRequestRecord) {
    const challenge = request.challenge;
    if (challenge === null || (challenge.kind !== 'mfa' && challenge.kind !== 'mfa_enrollment')) {
      throw authRequestExpiredError();
    }
    return challenge;
  }

  /**
   * A wrong code comes back inline, and so does a refusal while the user is locked (with its wait); a
   * used-up or expired challenge means starting again.
   */
  async #failed(
    error: unknown,
    request: AuthRequestRecord,
    browser: BrowserContext,
    method: string,
    retry: () => Promise<AuthorizeActionOutcome>,
  ): Promise<AuthorizeActionOutcome> {
    if (error instanceof SvcTooManyAttemptsError) return refusedRetry(error, await this.step(request));
    if (error instanceof SvcPublicAuthError && error.code === 'invalid_code') {
      await this.#steps.recordFailure(request, browser, method);
      return retry();
    }
    if (error instanceof SvcPublicAuthError || error instanceof SvcInvalidOperationError) {
      throw authRequestExpiredError();
    }
    throw error;
  }
}

export const MFA: SignInMethodKey<MfaSteps> = signInMethodKey('mfa');

/** The second factor of requests in status `mfa` (the engine moves a request there when MFA is due). */
export function mfaMethod(mfa: HostedMfa): SignInMethodRegistration {
  return ({ steps }) => {
    const actions = new MfaSteps({ mfa }, steps);
    return {
      key: MFA,
      actions,
      statuses: ['mfa'],
      statusStep: async (request) => ({ kind: 'step', step: await actions.step(request) }),
    };
  };
}
