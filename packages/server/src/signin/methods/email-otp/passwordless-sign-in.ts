import type {
  SvcEmailOtpSignupStartInput,
  SvcEmailOtpSignupStartResult,
  SvcEmailOtpSignupVerifyInput,
  SvcEmailOtpStartInput,
  SvcEmailOtpStartResult,
  SvcEmailOtpVerifyInput,
  SvcLoginResult,
  SvcMagicLinkCompleteInput,
  SvcMagicLinkStartInput,
  SvcMagicLinkStartResult,
} from '@svc/contract';
import type { ClientRecord } from '../../../directory/repository.js';
import { toIso } from '../../../kernel/clock.js';
import { sha256Hex } from '../../../kernel/crypto.js';
import { SvcPublicAuthError } from '../../../kernel/errors.js';
import type { Ids } from '../../../kernel/ids.js';
import {
  directCallOf,
  tokenCheckAddress,
  type CallerContext,
  type DirectCallContext,
  type DirectSignIn,
} from '../../direct-sign-in.js';
import type { SignupService } from '../../signup.js';
import type { EmailOtpChallenges } from './email-otp-challenges.js';
import type { MagicLinks } from '../magic-link/magic-links.js';
import {
  createPasswordlessAccount,
  signupTokenMatches,
  type CreatedAccount,
} from '../signup/passwordless-signup.js';
import type { EmailOtpChallengeRecord } from './repository.js';

/** Where a call comes from; the same shape SvcAuthService's operations take. */
export type PasswordlessCallContext = CallerContext;

/** RFC 8176 `otp`: a one-time password (the emailed code). */
export const AMR_OTP = 'otp';
/**
 * A magic link proves control of the mailbox, like the code, but is no password typed by the user; RFC
 * 8176 has no email value, so we record it as `email` (the registry allows new values; DECISIONS).
 */
export const AMR_EMAIL_LINK = 'email';

/** Each sign-in's amr and its method in the audit trail (the hosted steps' names). */
const EMAIL_OTP = { amr: AMR_OTP, method: 'email_otp' } as const;
const EMAIL_OTP_SIGNUP = { amr: AMR_OTP, method: 'email_otp_signup' } as const;
const MAGIC_LINK = { amr: AMR_EMAIL_LINK, method: 'magic_link' } as const;

export interface PasswordlessSignInDeps {
  /** The email code primitives, shared with the hosted pages. */
  readonly challenges: EmailOtpChallenges;
  /** The magic-link primitives, shared with the hosted pages. */
  readonly magicLinks: MagicLinks;
  readonly direct: Pick<DirectSignIn, 'requireFirstPartyClient' | 'completeSignIn' | 'lookUpChallenge'>;
  /** Creates the passwordless account of a verified signup (and the organization it owns). */
  readonly signup: Pick<SignupService, 'signUpPasswordless'>;
  readonly ids: Ids;
}

function invalidCodeError(): SvcPublicAuthError {
  return new SvcPublicAuthError('invalid_code', 'The code is not valid or has expired.', 400);
}

function invalidLinkError(): SvcPublicAuthError {
  return new SvcPublicAuthError('invalid_token', 'The sign-in link is not valid or has expired.', 400);
}

const challengeContext = (call: DirectCallContext) => ({
  operation: call.operation,
  ipAddress: call.ipAddress ?? null,
});

/** What every start answers about the message: where it went (masked) and its times, as ISO strings. */
function sentResult(sent: { maskedEmail: string; expiresAt: number; nextAllowedSendAt: number }) {
  return {
    maskedEmail: sent.maskedEmail,
    expiresAt: toIso(sent.expiresAt),
    nextAllowedSendAt: toIso(sent.nextAllowedSendAt),
  };
}

/**
 * Email OTP and magic-link sign-in and email OTP signup (docs/reference/sign-in.md "Email codes" SvcAuthService RequestEmailOtpAsync,
 * VerifyEmailOtpAsync, RequestEmailOtpSignupAsync, VerifyEmailOtpSignupAsync, RequestMagicLinkAsync,
 * CompleteMagicLinkAsync). First-party clients only, with the same gate and audit as password login.
 * Starts are enumeration-safe: the answer depends only on the request and the rate limit, never on
 * whether the address has an account (see EmailOtpChallenges and MagicLinks); a send the rate limit
 * refuses throws SvcSendRefusedError (429 `resend_too_soon`, nextAllowedSendAt).
 */
export class PasswordlessSignIn {
  readonly #deps: PasswordlessSignInDeps;
  /** The code primitives, for the hosted pages that serve any client of an authorization request. */
  readonly challenges: EmailOtpChallenges;
  /** The link primitives, for the hosted pages. */
  readonly magicLinks: MagicLinks;

  constructor(deps: PasswordlessSignInDeps) {
    this.#deps = deps;
    this.challenges = deps.challenges;
    this.magicLinks = deps.magicLinks;
  }

  /** RequestEmailOtpAsync: a challenge token always; a code is emailed only to a known, active user. */
  async requestEmailOtp(
    input: SvcEmailOtpStartInput,
    context?: PasswordlessCallContext,
  ): Promise<SvcEmailOtpStartResult> {
    const call = directCallOf('requestEmailOtpAsync', context, input.clientSecret);
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, call);
    const started = await this.challenges.start({
      email: input.email,
      clientId: client.clientId,
      organizationId: input.organizationId,
      signup: null,
      context: challengeContext(call),
    });
    return { challengeToken: started.challengeToken, ...sentResult(started) };
  }

  /**
   * VerifyEmailOtpAsync: every failure (unknown, used or expired challenge, wrong code, attempts used up)
   * is the same 400 `invalid_code`. The challenge's client must still be first-party.
   */
  async verifyEmailOtp(
    input: SvcEmailOtpVerifyInput,
    context?: PasswordlessCallContext,
  ): Promise<SvcLoginResult> {
    const call = directCallOf('verifyEmailOtpAsync', context, input.clientSecret);
    const { challenge, client } = await this.#findChallenge(input.challengeToken, 'login', call);
    const checked = await this.challenges.check(challenge, input.code, challengeContext(call));
    if (!checked.ok || checked.userId === null) throw invalidCodeError();
    return this.#signIn(checked.userId, client, challenge.organizationId, EMAIL_OTP, call);
  }

  /**
   * RequestEmailOtpSignupAsync: emails a code to an address that has no account yet and keeps the
   * pending account (name, organization name, custom fields) in the challenge. An address that already
   * has an account gets the same answer and no email; its verify fails like a wrong code.
   */
  async requestEmailOtpSignup(
    input: SvcEmailOtpSignupStartInput,
    context?: PasswordlessCallContext,
  ): Promise<SvcEmailOtpSignupStartResult> {
    const call = directCallOf('requestEmailOtpSignupAsync', context, input.clientSecret);
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, call);
    const signupToken = this.#deps.ids.secret();
    const started = await this.challenges.start({
      email: input.email,
      clientId: client.clientId,
      organizationId: null,
      signup: {
        tokenHash: sha256Hex(signupToken),
        data: {
          displayName: input.displayName,
          email: input.email,
          organizationName: input.organizationName,
          customFields: input.customFields,
        },
      },
      context: challengeContext(call),
    });
    return { signupToken, challengeToken: started.challengeToken, ...sentResult(started) };
  }

  /**
   * VerifyEmailOtpSignupAsync: both tokens must name the same challenge (compared as hashes in constant
   * time); the code counts an attempt as for login; then the passwordless account is created (email
   * verified, custom fields, and the organization it owns when one was named) and signed in with that
   * organization, amr `otp`. Every failure, an address taken meanwhile included, is `invalid_code`.
   */
  async verifyEmailOtpSignup(
    input: SvcEmailOtpSignupVerifyInput,
    context?: PasswordlessCallContext,
  ): Promise<SvcLoginResult> {
    const call = directCallOf('verifyEmailOtpSignupAsync', context, input.clientSecret);
    const { challenge, client } = await this.#findChallenge(input.challengeToken, 'signup', call);
    // Before the code: a wrong signup token spends no attempt.
    if (!signupTokenMatches(challenge.signupTokenHash, input.signupToken)) throw invalidCodeError();
    const checked = await this.challenges.check(challenge, input.code, challengeContext(call));
    const created = checked.ok ? await this.#createAccount(challenge) : undefined;
    if (created === undefined) throw invalidCodeError();
    return this.#signIn(created.userId, client, created.organizationId, EMAIL_OTP_SIGNUP, call);
  }

  /** RequestMagicLinkAsync: the same answer for every address; the link is emailed to known users only. */
  async requestMagicLink(
    input: SvcMagicLinkStartInput,
    context?: PasswordlessCallContext,
  ): Promise<SvcMagicLinkStartResult> {
    const call = directCallOf('requestMagicLinkAsync', context, input.clientSecret);
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, call);
    const issued = await this.magicLinks.issue({
      email: input.email,
      clientId: client.clientId,
      organizationId: input.organizationId,
      authRequestId: null,
      context: challengeContext(call),
    });
    return sentResult(issued);
  }

  /**
   * CompleteMagicLinkAsync: single use, bound to the client that requested it. The client is checked
   * first (the first-party gate), then the link is consumed; a link of another client, or one that
   * continues a hosted authorization request, is refused and not consumed.
   */
  async completeMagicLink(
    input: SvcMagicLinkCompleteInput,
    context?: PasswordlessCallContext,
  ): Promise<SvcLoginResult> {
    const call = directCallOf('completeMagicLinkAsync', context, input.clientSecret);
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, call);
    const link = await this.magicLinks.find(input.token, tokenCheckAddress(client, call));
    if (link === undefined || link.clientId !== client.clientId || link.authRequestId !== null) {
      await this.magicLinks.refused(client.clientId, challengeContext(call));
      throw invalidLinkError();
    }
    const userId = await this.magicLinks.consume(link, challengeContext(call));
    if (userId === undefined) throw invalidLinkError();
    return this.#signIn(userId, client, link.organizationId, MAGIC_LINK, call);
  }

  /**
   * The challenge of a token for `purpose` and its client, which must still be first-party; an unknown
   * challenge is audited and `invalid_code`.
   */
  async #findChallenge(
    challengeToken: string,
    purpose: 'login' | 'signup',
    call: DirectCallContext,
  ): Promise<{ challenge: EmailOtpChallengeRecord; client: ClientRecord }> {
    const challenge = await this.#deps.direct.lookUpChallenge(call, () =>
      this.challenges.find(sha256Hex(challengeToken), purpose),
    );
    if (challenge === undefined) {
      await this.challenges.unknown(challengeContext(call));
      throw invalidCodeError();
    }
    return { challenge, client: await this.#deps.direct.requireFirstPartyClient(challenge.clientId, call) };
  }

  /** The account of a verified signup challenge, or undefined when its address was taken meanwhile. */
  async #createAccount(challenge: EmailOtpChallengeRecord): Promise<CreatedAccount | undefined> {
    const data = challenge.signup;
    if (data === null) return undefined;
    return createPasswordlessAccount(this.#deps.signup, {
      displayName: data.displayName,
      email: data.email,
      phoneE164: null,
      customFields: data.customFields,
      organizationName: data.organizationName,
    });
  }

  /**
   * The address proved itself (code or link; the primitives marked it verified): sign in. The client was
   * checked first-party when the call began, so its record is passed on as checked.
   */
  #signIn(
    userId: string,
    client: ClientRecord,
    organizationId: string | null,
    how: { readonly amr: string; readonly method: string },
    call: DirectCallContext,
  ): Promise<SvcLoginResult> {
    return this.#deps.direct.completeSignIn(
      { userId, client, requestedOrganizationId: organizationId, ...how },
      call,
    );
  }
}
