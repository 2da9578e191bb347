import type * as Body from './actions.js';
import type { SvcHeadlessActionResult, SvcHeadlessStartRequest } from './types.js';

/**
 * The body of `start`: the /start fields, where the PKCE challenge may be left out for the client to
 * make one (and to keep its verifier for the redirect).
 */
export type SvcHeadlessStartInput = Omit<SvcHeadlessStartRequest, 'codeChallenge' | 'codeChallengeMethod'> & {
  codeChallenge?: string | undefined;
  /** Only `'S256'` exists; the client sends it when left out. */
  codeChallengeMethod?: 'S256' | undefined;
};

export interface SvcHeadlessStartOptions {
  /**
   * The verifier of the caller's own `codeChallenge` (or, without a challenge, the verifier to derive
   * it from): the client then fills it into the redirect's authorization data as it does for its own.
   */
  readonly codeVerifier?: string | undefined;
}

type Result = Promise<SvcHeadlessActionResult>;

/**
 * The headless API: one method per route, named after it (`password/login` → `passwordLogin`), each
 * posting the route's body and answering the SvcHeadlessActionResult: another view to render, or the
 * redirect to the client (with `authorization` when it carries a code). A non-2xx answer throws
 * SvcHeadlessError; a step's refusal carries the view to show again in its `result`.
 */
export interface SvcHeadlessClient {
  /**
   * `POST /start`: opens an authorization request and answers its first view. Without `codeChallenge`
   * the client makes an S256 pair and keeps the verifier for the request's redirect.
   */
  start(body: SvcHeadlessStartInput, options?: SvcHeadlessStartOptions): Result;
  /** `GET /requests/{requestId}`: the current view of an open request (after a reload, say). */
  getRequest(requestId: string): Result;
  /** `POST {route}` with a JSON body, for any route (also `/submit` with `action`). */
  submit<T = SvcHeadlessActionResult>(route: string, body: object): Promise<T>;

  /** `POST /identify`: the address typed on the `svc` or `login` view. */
  identify(body: Body.SvcHeadlessEmailBody): Result;
  /** `POST /password/login`. */
  passwordLogin(body: Body.SvcHeadlessPasswordLoginBody): Result;
  /** `POST /password/forgot`: the same answer for every address. */
  passwordForgot(body: Body.SvcHeadlessEmailBody): Result;
  /** `POST /password/reset`: the emailed token and the new password. */
  passwordReset(body: Body.SvcHeadlessPasswordResetBody): Result;
  /** `POST /email-otp/start`: emails a sign-in code. */
  emailOtpStart(body: Body.SvcHeadlessEmailBody): Result;
  /** `POST /email-otp/verify`. */
  emailOtpVerify(body: Body.SvcHeadlessCodeBody): Result;
  /** `POST /magic-link/start`: emails a sign-in link. */
  magicLinkStart(body: Body.SvcHeadlessEmailBody): Result;
  /** `POST /magic-link/complete`: the link's token, in the browser that asked for it. */
  magicLinkComplete(body: Body.SvcHeadlessMagicLinkCompleteBody): Result;
  /** `POST /phone-otp/start`: texts a sign-in code. */
  phoneOtpStart(body: Body.SvcHeadlessPhoneBody): Result;
  /** `POST /phone-otp/verify`. */
  phoneOtpVerify(body: Body.SvcHeadlessCodeBody): Result;
  /** `POST /signup`: a password account. */
  signup(body: Body.SvcHeadlessSignupBody): Result;
  /** `POST /signup/email-otp/start`: a passwordless account, created once the emailed code is typed. */
  signupEmailOtpStart(body: Body.SvcHeadlessEmailSignupBody): Result;
  /** `POST /signup/email-otp/verify`. */
  signupEmailOtpVerify(body: Body.SvcHeadlessCodeBody): Result;
  /** `POST /signup/phone-otp/start`: an account created once the texted code is typed. */
  signupPhoneOtpStart(body: Body.SvcHeadlessPhoneSignupBody): Result;
  /** `POST /signup/phone-otp/verify`. */
  signupPhoneOtpVerify(body: Body.SvcHeadlessCodeBody): Result;
  /** `POST /invitations/resolve`: what an invitation token invites to. */
  invitationsResolve(body: Body.SvcHeadlessInvitationBody): Result;
  /** `POST /invitations/signup`: a new account for the invited address. */
  invitationsSignup(body: Body.SvcHeadlessInvitationSignupBody): Result;
  /** `POST /invitations/login`: the invited account's password. */
  invitationsLogin(body: Body.SvcHeadlessInvitationLoginBody): Result;
  /** `POST /invitations/accept`: accepts as the signed-in invitee. */
  invitationsAccept(body: Body.SvcHeadlessInvitationBody): Result;
  /** `POST /invitations/email-otp/start`: emails a code to the invited address. */
  invitationsEmailOtpStart(body: Body.SvcHeadlessInvitationBody): Result;
  /** `POST /invitations/email-otp/verify`. */
  invitationsEmailOtpVerify(body: Body.SvcHeadlessInvitationCodeBody): Result;
  /** `POST /organization/select`: one of the view model's `organizationSelection.organizations`. */
  organizationSelect(body: Body.SvcHeadlessOrganizationSelectBody): Result;
  /** `POST /mfa/verify`: an authenticator-app or recovery code. */
  mfaVerify(body: Body.SvcHeadlessCodeBody): Result;
  /** `POST /mfa/totp/enroll/start`: the `mfa-enroll` view with the secret to add to an app. */
  mfaTotpEnrollStart(body: Body.SvcHeadlessRequestBody): Result;
  /** `POST /mfa/totp/enroll/verify`: the first code; the view model then carries the recovery codes. */
  mfaTotpEnrollVerify(body: Body.SvcHeadlessCodeBody): Result;
  /** `POST /consent/approve`: with the consent view model's `consentToken`. */
  consentApprove(body: Body.SvcHeadlessConsentBody): Result;
  /** `POST /consent/deny`: the client gets its access_denied redirect. */
  consentDeny(body: Body.SvcHeadlessConsentBody): Result;
  /** `POST /provider/start`: sign in with one of the view model's `providers`. */
  providerStart(body: Body.SvcHeadlessProviderStartBody): Result;
  /** `POST /device/resolve`: the code a device shows. */
  deviceResolve(body: Body.SvcHeadlessDeviceResolveBody): Result;
  /** `POST /device/approve`. */
  deviceApprove(body: Body.SvcHeadlessDeviceDecisionBody): Result;
  /** `POST /device/deny`. */
  deviceDeny(body: Body.SvcHeadlessDeviceDecisionBody): Result;
  /** `POST /logout`: ends the browser's issuer session. */
  logout(body: Body.SvcHeadlessRequestBody): Result;
}
