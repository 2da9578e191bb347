import type {
  ClientRepository,
  OrganizationRepository,
  UserRecord,
  UserRepository,
} from '../../../directory/repository.js';
import type { AuditLog } from '../../../audit/audit-log.js';
import type { Clock } from '../../../kernel/clock.js';
import {
  SvcConflictError,
  SvcTooManyAttemptsError,
  SvcValidationError,
  type RefusedAttempt,
} from '../../../kernel/errors.js';
import type { BrowserSessions } from '../../browser-sessions.js';
import type { PasswordAuthentication, PasswordAuthenticator } from '../../password-authenticator.js';
import { invalidInvitationError, type InvitationService } from './invitation-service.js';
import { AMR_INVITATION, requireInvitedDisplayName, type InvitationSignup } from './invitation-signup.js';
import type { InvitationRecord, InvitationRepository } from './repository.js';

/** RFC 8176: a password. */
const AMR_PASSWORD = 'pwd';

/** What the invitation pages show about an invitation. */
export interface InvitationSummary {
  /** The invited address (the link was mailed there, so its holder may see it). */
  readonly email: string;
  readonly organizationName: string;
  readonly role: string;
  /** The client the invitation was created for, when it names one. */
  readonly clientName: string | null;
}

/**
 * The page an open invitation shows, decided by the browser's issuer session and the invited address:
 *
 * - `confirm`: signed in as the invited address: one click accepts;
 * - `password`: an account with a password has the address: its password signs in and accepts;
 * - `sign_in_first`: the account has no password (it signs in with codes or links): sign in to it first,
 *   then open the link again in the same browser;
 * - `signup`: no account has the address: create one (passwordless, the link proved the address).
 *
 * `signedInAs` names another account the browser is signed in to, which accepting never uses.
 */
export type InvitationPage =
  | { readonly kind: 'confirm'; readonly summary: InvitationSummary }
  | {
      readonly kind: 'password' | 'signup';
      readonly summary: InvitationSummary;
      readonly signedInAs: string | null;
    }
  | {
      readonly kind: 'sign_in_first';
      readonly summary: InvitationSummary;
      readonly signedInAs: string | null;
      /** Where the invitation's application starts (its redirect URI), when it names one. */
      readonly continueUri: string | null;
    };

/** The page of a browser that is not signed in as the invitee: every kind but `confirm`. */
export type SignedOutInvitationPage = Exclude<InvitationPage, { readonly kind: 'confirm' }>;

/**
 * Which invitation a form means: the one of an emailed token, or the one an authorization request is
 * bound to (`invitationId`). With both, the token must be that invitation's.
 */
export type InvitationRef =
  { readonly token: unknown; readonly invitationId?: string | null } | { readonly invitationId: string };

/** Why a form of the invitation pages came back; the adapter words it. */
export type InvitationFormError =
  | 'password_required'
  | 'invalid_credentials'
  | 'too_many_attempts'
  | 'display_name_required'
  | 'account_exists'
  | 'not_signed_in';

/** An issuer session an acceptance started, for the adapter's session cookie. */
export interface InvitationSession {
  readonly token: string;
  readonly expiresAt: number;
}

/** The outcome of an accept form. */
export type InvitationAcceptOutcome =
  | {
      readonly kind: 'joined';
      readonly invitationId: string;
      /** The account that joined. */
      readonly userId: string;
      readonly session?: InvitationSession;
    }
  | {
      readonly kind: 'retry';
      readonly page: InvitationPage;
      readonly error: InvitationFormError;
      /** With `too_many_attempts`: the refusal's message and wait. */
      readonly refused?: RefusedAttempt;
    };

/** The page after joining. */
export interface JoinedInvitation extends InvitationSummary {
  /** The invitation's redirect URI while it is still registered for its active client; else null. */
  readonly continueUri: string | null;
}

/**
 * `startSession: false`: the caller signs the user in itself (an authorization request of the headless
 * API completes its own sign-in), so the acceptance starts no issuer session of its own.
 */
export interface AcceptOptions {
  readonly startSession?: boolean;
}

/** The browser an acceptance comes from. */
export interface InvitationBrowser {
  /** The issuer session cookie's value, when the browser has one. */
  readonly sessionToken?: string | undefined;
  readonly ipAddress?: string | undefined;
}

export interface InvitationAcceptanceDeps {
  readonly invitations: Pick<
    InvitationService,
    'findUsableInvitation' | 'findUsableInvitationById' | 'consumeInvitation'
  >;
  readonly signup: Pick<InvitationSignup, 'createInvitedAccount'>;
  readonly repository: Pick<InvitationRepository, 'findById'>;
  readonly users: Pick<UserRepository, 'findById' | 'findByEmailKey'>;
  readonly organizations: Pick<OrganizationRepository, 'findById'>;
  readonly clients: Pick<ClientRepository, 'findByClientId'>;
  readonly passwords: Pick<PasswordAuthenticator, 'authenticate'>;
  readonly browserSessions: Pick<BrowserSessions, 'resolve' | 'create' | 'end'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
}

/**
 * Accepting an emailed invitation in the browser (GET {authBase}/invitations/accept?token=…). Opening the
 * link never uses the invitation (mail scanners open links too); a form does. Every acceptance ends with
 * the browser signed in to the invited account (an issuer session), so that the application the user
 * continues to signs them in silently. An invitation is only ever accepted for the account that owns the
 * invited address: a browser signed in to another account must sign in to (or create) that one.
 * Every unusable token (unknown, resent, revoked, expired, used) is the one `invalid_invitation` error.
 */
export class InvitationAcceptance {
  readonly #deps: InvitationAcceptanceDeps;

  constructor(deps: InvitationAcceptanceDeps) {
    this.#deps = deps;
  }

  /** The page of a usable invitation for this browser. */
  async open(ref: InvitationRef, browser: InvitationBrowser): Promise<InvitationPage> {
    const invitation = await this.#find(ref, browser);
    return this.#page(invitation, await this.#signedIn(browser));
  }

  /**
   * The page of a usable invitation whatever the browser's session: how the invited address signs in
   * or signs up (an authorization request bound to the invitation never reuses a session).
   */
  async openSignedOut(ref: InvitationRef): Promise<SignedOutInvitationPage> {
    return this.#accountPage(await this.#find(ref), undefined);
  }

  /** The one-click acceptance of a browser signed in to the invited address. */
  async acceptSignedIn(ref: InvitationRef, browser: InvitationBrowser): Promise<InvitationAcceptOutcome> {
    const invitation = await this.#find(ref, browser);
    const user = await this.#signedIn(browser);
    if (user?.emailKey !== invitation.emailKey) {
      return { kind: 'retry', page: await this.#page(invitation, user), error: 'not_signed_in' };
    }
    // The session resolves only for an active user, so the user owns the invited address right now.
    await this.#deps.invitations.consumeInvitation(invitation, user.id, context(browser));
    return { kind: 'joined', invitationId: invitation.id, userId: user.id };
  }

  /**
   * Accepts for an account whose sign-in the caller has just proved (a code emailed to the invited
   * address on an authorization request, which then signs the user in itself). Anything but the active
   * account of the invited address is the generic `invalid_invitation`.
   */
  async acceptForVerifiedUser(
    ref: InvitationRef,
    userId: string,
    browser: InvitationBrowser,
  ): Promise<InvitationAcceptOutcome> {
    const invitation = await this.#find(ref, browser);
    const user = await this.#deps.users.findById(userId);
    if (user?.active !== true || user.emailKey !== invitation.emailKey) throw invalidInvitationError();
    await this.#deps.invitations.consumeInvitation(invitation, user.id, context(browser));
    return { kind: 'joined', invitationId: invitation.id, userId: user.id };
  }

  /**
   * Signs in to the invited account with its password, accepts, and starts an issuer session. A check
   * refused by the limits on password guessing comes back as `too_many_attempts` with the refusal.
   */
  async acceptWithPassword(
    ref: InvitationRef,
    password: unknown,
    browser: InvitationBrowser,
    options: AcceptOptions = {},
  ): Promise<InvitationAcceptOutcome> {
    const invitation = await this.#find(ref, browser);
    if (typeof password !== 'string' || password === '') {
      return this.#retry(invitation, browser, 'password_required');
    }
    let authentication: PasswordAuthentication;
    try {
      authentication = await this.#deps.passwords.authenticate(invitation.email, password, {
        operation: 'invitation acceptance',
        ipAddress: browser.ipAddress,
        clientId: invitation.clientId,
      });
    } catch (error) {
      if (!(error instanceof SvcTooManyAttemptsError)) throw error;
      return this.#retry(invitation, browser, 'too_many_attempts', error);
    }
    if (!authentication.ok) {
      await this.#recordSignIn(invitation, browser, AMR_PASSWORD, undefined);
      return this.#retry(invitation, browser, 'invalid_credentials');
    }
    const userId = authentication.user.id;
    await this.#deps.invitations.consumeInvitation(invitation, userId, context(browser));
    return this.#joined(invitation, browser, userId, AMR_PASSWORD, options);
  }

  /** Creates the passwordless account of the invited address, accepts, and starts an issuer session. */
  async acceptWithSignup(
    ref: InvitationRef,
    displayName: unknown,
    browser: InvitationBrowser,
    options: AcceptOptions = {},
  ): Promise<InvitationAcceptOutcome> {
    const invitation = await this.#find(ref, browser);
    let name: string;
    try {
      name = requireInvitedDisplayName(displayName);
    } catch (error) {
      if (error instanceof SvcValidationError)
        return this.#retry(invitation, browser, 'display_name_required');
      throw error;
    }
    let userId: string;
    try {
      ({ userId } = await this.#deps.signup.createInvitedAccount(invitation, name, context(browser)));
    } catch (error) {
      // Someone created the account meanwhile: the page now asks for its password.
      if (error instanceof SvcConflictError) return this.#retry(invitation, browser, 'account_exists');
      throw error;
    }
    return this.#joined(invitation, browser, userId, AMR_INVITATION, options);
  }

  /**
   * The page after joining, for the browser signed in to the account that accepted; anyone else gets the
   * generic `invalid_invitation` (the invitation id in the address is not a credential).
   */
  async joined(invitationId: unknown, browser: InvitationBrowser): Promise<JoinedInvitation> {
    const invitation =
      typeof invitationId === 'string' && /^[\x21-\x7e]{1,200}$/.test(invitationId)
        ? await this.#deps.repository.findById(invitationId)
        : undefined;
    const user = await this.#signedIn(browser);
    if (invitation?.status !== 'accepted' || user === undefined || invitation.acceptedUserId !== user.id) {
      throw invalidInvitationError();
    }
    return { ...(await this.#summary(invitation)), continueUri: await this.#continueUri(invitation) };
  }

  async #joined(
    invitation: InvitationRecord,
    browser: InvitationBrowser,
    userId: string,
    amr: string,
    options: AcceptOptions,
  ): Promise<InvitationAcceptOutcome> {
    await this.#recordSignIn(invitation, browser, amr, userId);
    if (options.startSession === false) return { kind: 'joined', invitationId: invitation.id, userId };
    // A new sign-in replaces the browser's previous issuer session, as on the sign-in pages.
    await this.#deps.browserSessions.end(browser.sessionToken);
    const session = await this.#deps.browserSessions.create(userId, [amr], this.#deps.clock.now());
    return { kind: 'joined', invitationId: invitation.id, userId, session };
  }

  async #retry(
    invitation: InvitationRecord,
    browser: InvitationBrowser,
    error: InvitationFormError,
    refused?: RefusedAttempt,
  ): Promise<InvitationAcceptOutcome> {
    const page = await this.#page(invitation, await this.#signedIn(browser));
    return { kind: 'retry', page, error, ...(refused === undefined ? {} : { refused }) };
  }

  /** The usable invitation a ref names; anything else is the generic `invalid_invitation`. */
  async #find(ref: InvitationRef, browser?: InvitationBrowser): Promise<InvitationRecord> {
    if (!('token' in ref)) return this.#deps.invitations.findUsableInvitationById(ref.invitationId);
    const invitation = await this.#deps.invitations.findUsableInvitation(ref.token, browser?.ipAddress);
    const bound = ref.invitationId ?? null;
    if (bound !== null && invitation.id !== bound) throw invalidInvitationError();
    return invitation;
  }

  async #page(invitation: InvitationRecord, signedIn: UserRecord | undefined): Promise<InvitationPage> {
    if (signedIn !== undefined && signedIn.emailKey === invitation.emailKey) {
      return { kind: 'confirm', summary: await this.#summary(invitation) };
    }
    return this.#accountPage(invitation, signedIn);
  }

  /** The page by the invited address's account: password, sign in first, or signup. */
  async #accountPage(
    invitation: InvitationRecord,
    signedIn: UserRecord | undefined,
  ): Promise<SignedOutInvitationPage> {
    const summary = await this.#summary(invitation);
    const signedInAs = signedIn === undefined ? null : (signedIn.email ?? signedIn.displayName);
    const account = await this.#deps.users.findByEmailKey(invitation.emailKey);
    if (account === undefined) return { kind: 'signup', summary, signedInAs };
    if (account.passwordHash === null && account.active) {
      return { kind: 'sign_in_first', summary, signedInAs, continueUri: await this.#continueUri(invitation) };
    }
    return { kind: 'password', summary, signedInAs };
  }

  async #summary(invitation: InvitationRecord): Promise<InvitationSummary> {
    const organization = await this.#deps.organizations.findById(invitation.organizationId);
    const client =
      invitation.clientId === null ? undefined : await this.#deps.clients.findByClientId(invitation.clientId);
    return {
      email: invitation.email,
      organizationName: organization?.name ?? '',
      role: invitation.role,
      clientName: client?.active === true ? client.name : null,
    };
  }

  async #continueUri(invitation: InvitationRecord): Promise<string | null> {
    if (invitation.clientId === null || invitation.redirectUri === null) return null;
    const client = await this.#deps.clients.findByClientId(invitation.clientId);
    return client?.active === true && client.redirectUris.includes(invitation.redirectUri)
      ? invitation.redirectUri
      : null;
  }

  async #signedIn(browser: InvitationBrowser): Promise<UserRecord | undefined> {
    const session = await this.#deps.browserSessions.resolve(browser.sessionToken);
    return session === null ? undefined : this.#deps.users.findById(session.userId);
  }

  async #recordSignIn(
    invitation: InvitationRecord,
    browser: InvitationBrowser,
    method: string,
    userId: string | undefined,
  ): Promise<void> {
    await this.#deps.audit.record({
      kind: userId === undefined ? 'invitation.sign_in.failed' : 'invitation.sign_in.succeeded',
      actorType: 'user',
      ...(userId === undefined ? {} : { actorId: userId, userId }),
      organizationId: invitation.organizationId,
      ...(invitation.clientId === null ? {} : { clientId: invitation.clientId }),
      ...(browser.ipAddress === undefined ? {} : { ipAddress: browser.ipAddress }),
      data: { invitationId: invitation.id, method },
    });
  }
}

function context(browser: InvitationBrowser): { ipAddress?: string } | undefined {
  return browser.ipAddress === undefined ? undefined : { ipAddress: browser.ipAddress };
}
