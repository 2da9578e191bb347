/**
 * The request bodies of the headless actions (every POST route below the base path except /start),
 * written out so that the package stays dependency-free; `contract.test.ts` compares them, route by
 * route and field by field, with the server's schemas in @svc/contract (HEADLESS_ACTIONS).
 */

/** The `requestId` every action after /start carries (the view model's). */
export interface SvcHeadlessRequestBody {
  requestId: string;
}

/** `/identify`, `/password/forgot`, `/email-otp/start` and `/magic-link/start`: an email address. */
export interface SvcHeadlessEmailBody extends SvcHeadlessRequestBody {
  email: string;
}

/** `/password/login`. */
export interface SvcHeadlessPasswordLoginBody extends SvcHeadlessRequestBody {
  password: string;
}

/** `/password/reset`: the emailed reset token and the new password. */
export interface SvcHeadlessPasswordResetBody extends SvcHeadlessRequestBody {
  token: string;
  newPassword: string;
}

/** Every `…/verify` action that checks a typed code (email, text message, authenticator app, recovery code). */
export interface SvcHeadlessCodeBody extends SvcHeadlessRequestBody {
  code: string;
}

/** `/phone-otp/start`: a number in E.164 (`+4915112345678`). */
export interface SvcHeadlessPhoneBody extends SvcHeadlessRequestBody {
  phoneNumber: string;
}

/** `/signup`: a password account (and a new organization when `organizationName` is given). */
export interface SvcHeadlessSignupBody extends SvcHeadlessRequestBody {
  displayName: string;
  email: string;
  password: string;
  organizationName?: string | undefined;
}

/** `/signup/email-otp/start`: the account to create once the emailed code is typed. */
export interface SvcHeadlessEmailSignupBody extends SvcHeadlessRequestBody {
  displayName: string;
  email: string;
  organizationName?: string | undefined;
}

/** `/signup/phone-otp/start`: the account to create once the texted code is typed. */
export interface SvcHeadlessPhoneSignupBody extends SvcHeadlessRequestBody {
  displayName: string;
  phoneNumber: string;
  organizationName?: string | undefined;
}

/** `/invitations/resolve`, `/invitations/accept` and `/invitations/email-otp/start`. */
export interface SvcHeadlessInvitationBody extends SvcHeadlessRequestBody {
  invitationToken: string;
}

/** `/invitations/signup`: the invited address's new account. */
export interface SvcHeadlessInvitationSignupBody extends SvcHeadlessInvitationBody {
  displayName: string;
}

/** `/invitations/login`: the invited account's password. */
export interface SvcHeadlessInvitationLoginBody extends SvcHeadlessInvitationBody {
  password: string;
}

/** `/invitations/email-otp/verify`: the code emailed to the invited address. */
export interface SvcHeadlessInvitationCodeBody extends SvcHeadlessInvitationBody {
  code: string;
}

/** `/organization/select`: without `pendingToken` the server uses a fresh one of this request. */
export interface SvcHeadlessOrganizationSelectBody extends SvcHeadlessRequestBody {
  organizationId: string;
  pendingToken?: string | undefined;
}

/** `/consent/approve` and `/consent/deny`: the consent view model's `consentToken`. */
export interface SvcHeadlessConsentBody extends SvcHeadlessRequestBody {
  consentToken: string;
}

/**
 * `/provider/start`: the `id` of one of the view model's `providers`, as `providerId` (or, as the
 * server also accepts, `connectionId`); one of the two is required.
 */
export interface SvcHeadlessProviderStartBody extends SvcHeadlessRequestBody {
  providerId?: string | undefined;
  connectionId?: string | undefined;
}

/** `/magic-link/complete`: the emailed link's token, in the browser that asked for the link. */
export interface SvcHeadlessMagicLinkCompleteBody extends SvcHeadlessRequestBody {
  token: string;
}

/** `/device/resolve`: the code a device shows; it opens the device request, hence no `requestId` yet. */
export interface SvcHeadlessDeviceResolveBody {
  requestId?: string | undefined;
  userCode: string;
}

/** `/device/approve` and `/device/deny`: the request and the code the user compared. */
export interface SvcHeadlessDeviceDecisionBody extends SvcHeadlessRequestBody {
  userCode: string;
}

/** Every headless action route (its path below the base) with its request body. */
export interface SvcHeadlessActionBodies {
  identify: SvcHeadlessEmailBody;
  'password/login': SvcHeadlessPasswordLoginBody;
  'password/forgot': SvcHeadlessEmailBody;
  'password/reset': SvcHeadlessPasswordResetBody;
  'email-otp/start': SvcHeadlessEmailBody;
  'email-otp/verify': SvcHeadlessCodeBody;
  'magic-link/start': SvcHeadlessEmailBody;
  'magic-link/complete': SvcHeadlessMagicLinkCompleteBody;
  'phone-otp/start': SvcHeadlessPhoneBody;
  'phone-otp/verify': SvcHeadlessCodeBody;
  signup: SvcHeadlessSignupBody;
  'signup/email-otp/start': SvcHeadlessEmailSignupBody;
  'signup/email-otp/verify': SvcHeadlessCodeBody;
  'signup/phone-otp/start': SvcHeadlessPhoneSignupBody;
  'signup/phone-otp/verify': SvcHeadlessCodeBody;
  'invitations/resolve': SvcHeadlessInvitationBody;
  'invitations/signup': SvcHeadlessInvitationSignupBody;
  'invitations/login': SvcHeadlessInvitationLoginBody;
  'invitations/accept': SvcHeadlessInvitationBody;
  'invitations/email-otp/start': SvcHeadlessInvitationBody;
  'invitations/email-otp/verify': SvcHeadlessInvitationCodeBody;
  'organization/select': SvcHeadlessOrganizationSelectBody;
  'mfa/verify': SvcHeadlessCodeBody;
  'mfa/totp/enroll/start': SvcHeadlessRequestBody;
  'mfa/totp/enroll/verify': SvcHeadlessCodeBody;
  'consent/approve': SvcHeadlessConsentBody;
  'consent/deny': SvcHeadlessConsentBody;
  'provider/start': SvcHeadlessProviderStartBody;
  'device/resolve': SvcHeadlessDeviceResolveBody;
  'device/approve': SvcHeadlessDeviceDecisionBody;
  'device/deny': SvcHeadlessDeviceDecisionBody;
  logout: SvcHeadlessRequestBody;
}

/** A headless action route, such as `'password/login'`. */
export type SvcHeadlessAction = keyof SvcHeadlessActionBodies;

/** The field names of one action's body, split by whether the server requires them. */
export interface SvcHeadlessActionFields {
  readonly required: readonly string[];
  readonly optional: readonly string[];
}

/**
 * The request fields of every action at runtime (for a UI that builds its forms from them, and for the
 * contract check): the same routes and names as `SvcHeadlessActionBodies`.
 */
export const HEADLESS_ACTION_FIELDS = {
  identify: { required: ['requestId', 'email'], optional: [] },
  'password/login': { required: ['requestId', 'password'], optional: [] },
  'password/forgot': { required: ['requestId', 'email'], optional: [] },
  'password/reset': { required: ['requestId', 'token', 'newPassword'], optional: [] },
  'email-otp/start': { required: ['requestId', 'email'], optional: [] },
  'email-otp/verify': { required: ['requestId', 'code'], optional: [] },
  'magic-link/start': { required: ['requestId', 'email'], optional: [] },
  'magic-link/complete': { required: ['requestId', 'token'], optional: [] },
  'phone-otp/start': { required: ['requestId', 'phoneNumber'], optional: [] },
  'phone-otp/verify': { required: ['requestId', 'code'], optional: [] },
  signup: { required: ['requestId', 'displayName', 'email', 'password'], optional: ['organizationName'] },
  'signup/email-otp/start': {
    required: ['requestId', 'displayName', 'email'],
    optional: ['organizationName'],
  },
  'signup/email-otp/verify': { required: ['requestId', 'code'], optional: [] },
  'signup/phone-otp/start': {
    required: ['requestId', 'displayName', 'phoneNumber'],
    optional: ['organizationName'],
  },
  'signup/phone-otp/verify': { required: ['requestId', 'code'], optional: [] },
  'invitations/resolve': { required: ['requestId', 'invitationToken'], optional: [] },
  'invitations/signup': { required: ['requestId', 'invitationToken', 'displayName'], optional: [] },
  'invitations/login': { required: ['requestId', 'invitationToken', 'password'], optional: [] },
  'invitations/accept': { required: ['requestId', 'invitationToken'], optional: [] },
  'invitations/email-otp/start': { required: ['requestId', 'invitationToken'], optional: [] },
  'invitations/email-otp/verify': { required: ['requestId', 'invitationToken', 'code'], optional: [] },
  'organization/select': { required: ['requestId', 'organizationId'], optional: ['pendingToken'] },
  'mfa/verify': { required: ['requestId', 'code'], optional: [] },
  'mfa/totp/enroll/start': { required: ['requestId'], optional: [] },
  'mfa/totp/enroll/verify': { required: ['requestId', 'code'], optional: [] },
  'consent/approve': { required: ['requestId', 'consentToken'], optional: [] },
  'consent/deny': { required: ['requestId', 'consentToken'], optional: [] },
  'provider/start': { required: ['requestId'], optional: ['providerId', 'connectionId'] },
  'device/resolve': { required: ['userCode'], optional: ['requestId'] },
  'device/approve': { required: ['requestId', 'userCode'], optional: [] },
  'device/deny': { required: ['requestId', 'userCode'], optional: [] },
  logout: { required: ['requestId'], optional: [] },
} as const satisfies Readonly<Record<SvcHeadlessAction, SvcHeadlessActionFields>>;
