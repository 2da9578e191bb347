import type { DeviceDecisionStatus, SvcScopeDetail } from '@svc/contract';
import { SvcHostedPageError } from '../../flow/page-error.js';
import { sha256Hex } from '../../../kernel/crypto.js';
import type { RateLimiter } from '../../../ratelimit/rate-limiter.js';
import type { RateLimitPolicy } from '../../../ratelimit/rules.js';
import type { DeviceAuthorizations } from '../../../oauth/device/device-authorizations.js';
import type { DeviceAuthorizationView } from '../../../oauth/device/device-outcomes.js';
import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import type { AuthorizeCompletion } from '../../flow/authorize-completion.js';
import {
  selfRegisteredClient,
  type AuthorizeStep,
  type BrowserContext,
} from '../../flow/authorize-outcomes.js';
import type { AuthorizeFlowDeps } from '../../flow/deps.js';
import { openDeviceUserCode, sealDeviceUserCode } from './device-user-code.js';
import { authRequestExpiredError } from '../../flow/errors.js';
import type { AuthRequestRecord } from '../../flow/repository.js';
import { signInMethodKey, type SignInMethodKey } from '../../flow/sign-in-method.js';
import type { SignInMethodContext, SignInMethodRegistration } from '../../flow/method-context.js';

declare module '../../flow/authorize-outcomes.js' {
  interface AuthorizeStepKinds {
    /** A signed-in device request: approve or deny the device (RFC 8628 §3.3). */
    device_approval: {
      readonly kind: 'device_approval';
      readonly request: StepRequest;
      /** The device's code, `XXXX-XXXX`, for the user to compare with the device's screen. */
      readonly userCode: string;
      readonly scopes: readonly string[];
      /** The scopes as the user reads them: display names and descriptions. */
      readonly scopeDetails: readonly SvcScopeDetail[];
      readonly userEmail: string | null;
      readonly organizationName: string | null;
      /** Null for a client an operator created. */
      readonly selfRegistered: SelfRegisteredClient | null;
    };
  }
}

/** What the hosted device verification needs beside the authorization flow. */
export interface DeviceFlowDeps {
  /** The device authorization grant (oauth/device): the request behind a user code, its decision. */
  readonly devices: Pick<DeviceAuthorizations, 'resolve' | 'approve' | 'deny'>;
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
  /** `config.rateLimits.deviceVerify`: user-code lookups per IP address. */
  readonly verifyLimit: RateLimitPolicy;
}

/** Why the /device form comes back; the adapter words it. */
export type DeviceVerifyError = 'device_code_required' | 'device_code_invalid' | 'device_code_rate_limited';

/** The words for each verify error, which the hosted /device page and the headless API both show. */
export const DEVICE_VERIFY_MESSAGES: Readonly<Record<DeviceVerifyError, string>> = Object.freeze({
  device_code_required: 'Enter the code shown on your device.',
  // One answer for a malformed, unknown, expired or already used code: the page tells a guesser nothing.
  device_code_invalid: 'That code is not valid or has expired. Check the code on your device.',
  device_code_rate_limited: 'Too many attempts. Wait a moment, then try again.',
});

/** The outcome of POST /device/verify. */
export type DeviceVerifyOutcome =
  /** A device request was started: to its current step (sign-in, or the approval when signed in). */
  | { readonly kind: 'next'; readonly requestId: string }
  /** The form again with an inline error and what was typed; `retryAfterMs` when rate-limited. */
  | {
      readonly kind: 'retry';
      readonly error: DeviceVerifyError;
      readonly userCode: string;
      readonly retryAfterMs?: number;
    };

/** The outcome of POST /device/approve and /device/deny. */
export type DeviceDecisionOutcome =
  /** This post decided the device request. */
  | { readonly kind: 'decided'; readonly decision: 'approved' | 'denied'; readonly clientName: string }
  /** The request is not waiting for a decision (yet): to its current step. */
  | { readonly kind: 'next'; readonly requestId: string };

/**
 * The hosted side of the device authorization grant (RFC 8628 §3.3; docs/reference/tokens-and-sessions.md "Device authorization grant"): a
 * user types (or the device's link fills in) the user code, signs in on an authorization request of its
 * own, and approves or denies the device.
 *
 * | from | event | to |
 * |---|---|---|
 * | (POST /device/verify) | a pending user code, no issuer session | pending (the usual sign-in steps) |
 * | (POST /device/verify) | a pending user code, a live issuer session | organization_selection, mfa or device_approval, as the engine decides |
 * | pending, organization_selection, mfa | signed in (AuthorizeCompletion.afterSignIn) | device_approval (never consent, never a code) |
 * | device_approval | approve (the device approved for the request's identity) | completed |
 * | device_approval | deny | denied |
 *
 * The approval page always shows, even for a reused session: approving a device is never silent. The
 * request is bound to its browser like any other; the user code is kept sealed for that browser only
 * (./device-user-code.ts). A code that expired or was decided meanwhile (another tab, the headless API)
 * ends with a page that says so.
 */
export class DeviceSteps {
  readonly #deps: AuthorizeFlowDeps;
  readonly #device: DeviceFlowDeps;
  readonly #completion: AuthorizeCompletion;
  readonly #steps: AuthRequestSteps;
  readonly #lifetimeMs: number;

  constructor(context: SignInMethodContext, device: DeviceFlowDeps) {
    this.#deps = context.deps;
    this.#device = device;
    this.#completion = context.completion;
    this.#steps = context.steps;
    this.#lifetimeMs = context.requestLifetimeMs;
  }

  /**
   * POST /device/verify: every typed code counts against the per-IP limit (RFC 8628 §5.1), and a code
   * that is malformed, unknown, expired or already decided gets one answer. A pending code starts a
   * device request bound to this browser, which reuses the browser's issuer session when it has one.
   */
  async verify(
    rawUserCode: string | undefined,
    browser: BrowserContext & { readonly browserId: string },
  ): Promise<DeviceVerifyOutcome> {
    const typed = rawUserCode?.trim() ?? '';
    if (typed === '') return { kind: 'retry', error: 'device_code_required', userCode: '' };
    const limit = await this.#device.rateLimiter.consume(this.#device.verifyLimit, { ip: browser.ipAddress });
    if (!limit.allowed) {
      return {
        kind: 'retry',
        error: 'device_code_rate_limited',
        userCode: typed,
        retryAfterMs: limit.retryAfterMs,
      };
    }
    const view = await this.#device.devices.resolve(typed);
    if (view?.status !== 'pending') return { kind: 'retry', error: 'device_code_invalid', userCode: typed };

    const client = await this.#completion.activeClient(view.clientId);
    const record = this.#record(view, client.clientId, browser.browserId);
    await this.#deps.requests.insert(record);
    const next = { kind: 'next', requestId: record.id } as const;
    const session = await this.#deps.browserSessions.resolve(browser.sessionToken);
    if (session === null) return next;
    const identity = { userId: session.userId, amr: [...session.amr], authTime: session.authTime };
    // Organization selection, MFA or the approval: a device request never leaves for a client.
    await this.#steps.continueWith(record, 'pending', await this.#steps.signIn(record, identity), identity);
    return next;
  }

  /** GET /device/approve: the approval step of a request waiting for it, else its current step. */
  async approvalPage(
    requestId: string | undefined,
    browser: BrowserContext,
  ): Promise<
    | { readonly kind: 'step'; readonly step: AuthorizeStep }
    | { readonly kind: 'next'; readonly requestId: string }
  > {
    const request = await this.#steps.load(requestId, browser);
    if (request.status !== 'device_approval') return { kind: 'next', requestId: request.id };
    return { kind: 'step', step: await this.approvalStep(request, browser) };
  }

  /**
   * The approval page of a signed-in device request (GET /login shows it too): the client, the code to
   * compare with the device, the scopes, the account and its organization. A code that can no longer be
   * approved shows why instead.
   */
  async approvalStep(request: AuthRequestRecord, browser: BrowserContext): Promise<AuthorizeStep> {
    const userCode = this.#userCode(request, browser);
    const view = await this.#device.devices.resolve(userCode);
    if (view?.status !== 'pending') throw deviceCodeEndedError(view?.status ?? 'not_found');
    const client = await this.#completion.activeClient(request.clientId);
    const { userId } = this.#steps.identityOf(request);
    const user = await this.#deps.users.findById(userId);
    const organizations =
      request.organizationId === null ? [] : await this.#deps.organizations.options(userId);
    const scopes = this.#completion.grantedScopes(request, client);
    return {
      kind: 'device_approval',
      request: await this.#steps.stepRequest(request, client),
      userCode,
      scopes,
      scopeDetails: await this.#deps.scopeDisplay.describe(scopes),
      // An account signed up by phone has no address: its name says who is signed in.
      userEmail: user?.email ?? user?.displayName ?? null,
      organizationName: organizations.find((org) => org.id === request.organizationId)?.name ?? null,
      selfRegistered: selfRegisteredClient(client, null),
    };
  }

  /** POST /device/approve: the device gets the request's identity (user, organization, amr, auth_time). */
  async approve(requestId: string | undefined, browser: BrowserContext): Promise<DeviceDecisionOutcome> {
    return this.#decide(requestId, browser, 'approved');
  }

  /** POST /device/deny: the device's polling then answers access_denied. */
  async deny(requestId: string | undefined, browser: BrowserContext): Promise<DeviceDecisionOutcome> {
    return this.#decide(requestId, browser, 'denied');
  }

  async #decide(
    requestId: string | undefined,
    browser: BrowserContext,
    decision: 'approved' | 'denied',
  ): Promise<DeviceDecisionOutcome> {
    const request = await this.#steps.load(requestId, browser);
    if (request.status !== 'device_approval') return { kind: 'next', requestId: request.id };
    const userCode = this.#userCode(request, browser);
    const client = await this.#completion.activeClient(request.clientId);
    const identity = this.#steps.identityOf(request);
    const status =
      decision === 'approved'
        ? await this.#device.devices.approve({
            userCode,
            userId: identity.userId,
            organizationId: request.organizationId,
            amr: identity.amr,
            authTime: identity.authTime,
          })
        : await this.#device.devices.deny({ userCode, userId: identity.userId });
    if (status !== decision) throw deviceCodeEndedError(status);
    // The device row decided (one conditional update across tabs and the headless API); the request only
    // ends with it, so a lost race here (the request's own expiry) changes nothing for the device.
    await this.#deps.requests.transition(
      request.id,
      'device_approval',
      { status: decision === 'approved' ? 'completed' : 'denied' },
      this.#deps.clock.now(),
    );
    return { kind: 'decided', decision, clientName: client.name };
  }

  /** The user code of a device request, opened with this browser's id; else the "start again" page. */
  #userCode(request: AuthRequestRecord, browser: BrowserContext): string {
    const sealed = request.sealedDeviceUserCode;
    const userCode =
      sealed === null || browser.browserId === undefined
        ? undefined
        : openDeviceUserCode(sealed, browser.browserId, request.id);
    if (userCode === undefined) throw authRequestExpiredError();
    return userCode;
  }

  /** A device request for the device's client, scopes and resource; no redirect URI, PKCE or state. */
  #record(view: DeviceAuthorizationView, clientId: string, browserId: string): AuthRequestRecord {
    const now = this.#deps.clock.now();
    const id = this.#deps.ids.id('azr');
    return {
      id,
      clientId,
      redirectUri: '',
      state: null,
      requestedScopes: [...view.scopes],
      grantedScopes: [...view.scopes],
      codeChallenge: '',
      codeChallengeMethod: '',
      resource: view.resource,
      nonce: null,
      prompt: [],
      maxAge: null,
      loginHint: null,
      view: null,
      uiContext: null,
      browserBinding: sha256Hex(browserId),
      status: 'pending',
      email: null,
      userId: null,
      organizationId: null,
      amr: null,
      authTime: null,
      createdAt: now,
      updatedAt: now,
      expiresAt: now + this.#lifetimeMs,
      completedAt: null,
      challenge: null,
      sealedDeviceUserCode: sealDeviceUserCode(view.userCode, browserId, id),
      invitationId: null,
      sessionless: false,
    };
  }
}

/** The page for a device code that can no longer be approved or denied. */
export function deviceCodeEndedError(
  status: DeviceDecisionStatus | DeviceAuthorizationView['status'],
): SvcHostedPageError {
  if (status === 'expired' || status === 'not_found') {
    return new SvcHostedPageError(
      'This code has expired',
      'The code from your device can no longer be used. Start again on your device to get a new code.',
      { status: 400, code: 'device_code_expired' },
    );
  }
  return new SvcHostedPageError(
    'This device request was already answered',
    'The request from your device was already approved or denied, perhaps in another window. Check your device.',
    { status: 400, code: 'device_code_decided' },
  );
}

export const DEVICE: SignInMethodKey<DeviceSteps> = signInMethodKey('device');

/** The device grant's verification: starts device requests at /device and shows their approval. */
export function deviceMethod(device: DeviceFlowDeps): SignInMethodRegistration {
  return (context) => {
    const actions = new DeviceSteps(context, device);
    return {
      key: DEVICE,
      actions,
      statuses: ['device_approval'],
      statusStep: async (request, browser) => ({
        kind: 'step',
        step: await actions.approvalStep(request, browser),
      }),
    };
  };
}
