import type {
  SvcLoginResult,
  SvcPhoneOtpSignupStartInput,
  SvcPhoneOtpSignupStartResult,
  SvcPhoneOtpSignupVerifyInput,
  SvcPhoneOtpStartInput,
  SvcPhoneOtpStartResult,
  SvcPhoneOtpVerifyInput,
} from '@svc/contract';
import type { ClientRecord } from '../../../directory/repository.js';
import { toIso } from '../../../kernel/clock.js';
import { sha256Hex } from '../../../kernel/crypto.js';
import { SvcInvalidOperationError } from '../../../kernel/errors.js';
import type { Ids } from '../../../kernel/ids.js';
import {
  directCallOf,
  type CallerContext,
  type DirectCallContext,
  type DirectSignIn,
} from '../../direct-sign-in.js';
import type { SignupService } from '../../signup.js';
import { requirePhoneNumber } from '../../../sms/phone-number.js';
import {
  createPasswordlessAccount,
  signupTokenMatches,
  type CreatedAccount,
} from '../signup/passwordless-signup.js';
import type {
  FoundPhoneChallenge,
  PhoneOtpChallenges,
  StartedPhoneChallenge,
} from './phone-otp-challenges.js';

export { PHONE_OTP_LIFETIME_MS, PHONE_OTP_MAX_ATTEMPTS } from './phone-otp-challenges.js';

/** RFC 8176 `sms`: confirmation by a code sent in a text message. */
export const AMR_SMS = 'sms';

/** The same words whether or not the number belongs to an account (enumeration safety). */
export const PHONE_OTP_SENT_MESSAGE =
  'If this phone number belongs to an account, a sign-in code has been sent to it by text message.';

/** The same words whether or not the number already has an account (enumeration safety). */
export const PHONE_OTP_SIGNUP_SENT_MESSAGE =
  'If this phone number can be used for a new account, a verification code has been sent to it by text message.';

const INVALID_CODE = 'The code is not valid or has expired; request a new code.';

/** Where an in-process call comes from (SvcAuthCallContext of the facade). */
export type PhoneOtpCallContext = CallerContext;

export interface PhoneOtpServiceDeps {
  /** The challenge primitives, shared with the hosted pages. */
  readonly challenges: PhoneOtpChallenges;
  readonly direct: Pick<DirectSignIn, 'requireFirstPartyClient' | 'completeSignIn' | 'lookUpChallenge'>;
  /** Creates the passwordless account of a verified signup (and the organization it owns). */
  readonly signup: Pick<SignupService, 'signUpPasswordless'>;
  readonly ids: Ids;
}

/**
 * Phone OTP sign-in and signup in-process (docs/reference/sign-in.md "Phone codes" RequestPhoneOtpAsync, VerifyPhoneOtpAsync,
 * RequestPhoneOtpSignupAsync, VerifyPhoneOtpSignupAsync; rule 4: "Phone OTP is delivered by an SMS
 * verification provider and requires complete provider configuration …; invalid configuration or
 * challenge failures raise an invalid-operation error"). The provider (Twilio Verify) generates and
 * checks the code; Svc keeps only the hash of the challenge token, the number and a local attempts
 * counter. First-party clients only, like password login. Starts are enumeration-safe (see
 * PhoneOtpChallenges): a login for an unknown number and a signup for a taken one get the same answer,
 * no text, and a challenge that fails like a wrong code. A send the rate limit refuses throws
 * SvcSendRefusedError (429 `resend_too_soon`, nextAllowedSendAt) and never reaches the provider.
 */
export class PhoneOtpService {
  readonly #deps: PhoneOtpServiceDeps;
  /** The primitives, for the hosted pages that serve any client of an authorization request. */
  readonly challenges: PhoneOtpChallenges;

  constructor(deps: PhoneOtpServiceDeps) {
    this.#deps = deps;
    this.challenges = deps.challenges;
  }

  /** RequestPhoneOtpAsync: starts a login challenge; identical results for known and unknown numbers. */
  async requestPhoneOtp(
    input: SvcPhoneOtpStartInput,
    context?: PhoneOtpCallContext,
  ): Promise<SvcPhoneOtpStartResult> {
    const config = this.challenges.requireConfig();
    const call = directCallOf('requestPhoneOtpAsync', context, input.clientSecret);
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, call);
    const { e164 } = requirePhoneNumber(
      input.phoneNumber,
      config.defaultRegion,
      'PhoneNumber',
      config.countries,
    );
    const started = await this.challenges.start({
      e164,
      clientId: client.clientId,
      organizationId: input.organizationId,
      signup: null,
      context: { operation: call.operation, ipAddress: call.ipAddress ?? null },
    });
    return startResult(started, PHONE_OTP_SENT_MESSAGE);
  }

  /**
   * VerifyPhoneOtpAsync: checks the code with the provider and signs the user in (tokens, or
   * organization selection). Every failure — unknown, used or expired challenge, attempts exhausted
   * (5), wrong code, unknown number — is the same SvcInvalidOperationError; each check counts an attempt.
   */
  async verifyPhoneOtp(
    input: SvcPhoneOtpVerifyInput,
    context?: PhoneOtpCallContext,
  ): Promise<SvcLoginResult> {
    this.challenges.requireConfig();
    const call = directCallOf('verifyPhoneOtpAsync', context, input.clientSecret);
    const challenge = await this.#deps.direct.lookUpChallenge(call, () =>
      this.challenges.find(sha256Hex(input.challengeToken), 'login'),
    );
    if (challenge === undefined) throw invalidCode();
    const client = await this.#deps.direct.requireFirstPartyClient(challenge.clientId, call);
    const checked = await this.#check(challenge, input.code, call);
    if (checked.userId === null) throw invalidCode();
    return this.#signIn(checked.userId, client, challenge.organizationId, 'phone_otp', call);
  }

  /**
   * RequestPhoneOtpSignupAsync: texts a code to a number that has no account yet and remembers the
   * pending account (name, organization name, custom fields) in the challenge. A number that already
   * has an account gets the identical answer and no text; its verify fails like a wrong code.
   */
  async requestPhoneOtpSignup(
    input: SvcPhoneOtpSignupStartInput,
    context?: PhoneOtpCallContext,
  ): Promise<SvcPhoneOtpSignupStartResult> {
    const config = this.challenges.requireConfig();
    const call = directCallOf('requestPhoneOtpSignupAsync', context, input.clientSecret);
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, call);
    const { e164 } = requirePhoneNumber(
      input.phoneNumber,
      config.defaultRegion,
      'PhoneNumber',
      config.countries,
    );
    const signupToken = this.#deps.ids.secret();
    const started = await this.challenges.start({
      e164,
      clientId: client.clientId,
      organizationId: null,
      signup: {
        tokenHash: sha256Hex(signupToken),
        data: {
          displayName: input.displayName,
          organizationName: input.organizationName,
          customFields: input.customFields,
        },
      },
      context: { operation: call.operation, ipAddress: call.ipAddress ?? null },
    });
    return { ...startResult(started, PHONE_OTP_SIGNUP_SENT_MESSAGE), signupToken };
  }

  /**
   * VerifyPhoneOtpSignupAsync: both tokens must name the same challenge; the provider approves the code;
   * then the passwordless account is created (phone verified, custom fields, and the organization it
   * owns when one was named) and signed in with that organization, amr `sms`. Every failure, a number
   * taken meanwhile included, is the same SvcInvalidOperationError.
   */
  async verifyPhoneOtpSignup(
    input: SvcPhoneOtpSignupVerifyInput,
    context?: PhoneOtpCallContext,
  ): Promise<SvcLoginResult> {
    this.challenges.requireConfig();
    const call = directCallOf('verifyPhoneOtpSignupAsync', context, input.clientSecret);
    const challenge = await this.#deps.direct.lookUpChallenge(call, () =>
      this.challenges.find(sha256Hex(input.challengeToken), 'signup'),
    );
    if (challenge === undefined) throw invalidCode();
    const client = await this.#deps.direct.requireFirstPartyClient(challenge.clientId, call);
    // Before the code: a wrong signup token spends no attempt.
    if (!signupTokenMatches(challenge.signupTokenHash, input.signupToken)) throw invalidCode();
    await this.#check(challenge, input.code, call);
    const created = await createPhoneAccount(this.#deps.signup, challenge);
    if (created === undefined) throw invalidCode();
    return this.#signIn(created.userId, client, created.organizationId, 'phone_otp_signup', call);
  }

  async #check(challenge: FoundPhoneChallenge, code: string, call: DirectCallContext) {
    const checked = await this.challenges.check(challenge, code, {
      operation: call.operation,
      ipAddress: call.ipAddress ?? null,
    });
    if (!checked.ok) throw invalidCode();
    return checked;
  }

  /** `method`: the hosted steps' name of the sign-in, for the audit trail. */
  #signIn(
    userId: string,
    client: ClientRecord,
    organizationId: string | null,
    method: 'phone_otp' | 'phone_otp_signup',
    call: DirectCallContext,
  ): Promise<SvcLoginResult> {
    return this.#deps.direct.completeSignIn(
      { userId, client, requestedOrganizationId: organizationId, amr: AMR_SMS, method },
      call,
    );
  }
}

/**
 * The account of a verified phone signup challenge: a passwordless user whose number is verified, with
 * the custom fields and the organization it owns (when one was named). Undefined when the number was
 * taken meanwhile (see createPasswordlessAccount).
 */
export async function createPhoneAccount(
  signup: Pick<SignupService, 'signUpPasswordless'>,
  challenge: FoundPhoneChallenge,
): Promise<CreatedAccount | undefined> {
  const data = challenge.signupData;
  if (data === null) return undefined;
  return createPasswordlessAccount(signup, {
    displayName: data.displayName,
    email: null,
    phoneE164: challenge.phoneE164,
    customFields: data.customFields,
    organizationName: data.organizationName,
  });
}

function startResult(started: StartedPhoneChallenge, message: string): SvcPhoneOtpStartResult {
  return {
    challengeToken: started.challengeToken,
    phoneNumber: started.e164,
    maskedPhoneNumber: started.maskedPhoneNumber,
    message,
    expiresAt: toIso(started.expiresAt),
    nextAllowedSendAt: toIso(started.nextAllowedSendAt),
  };
}

function invalidCode(): SvcInvalidOperationError {
  return new SvcInvalidOperationError(INVALID_CODE);
}
