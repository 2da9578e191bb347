import type { ClientRecord } from '../../../directory/repository.js';
import { SvcHostedPageError } from '../../flow/page-error.js';
import type { Clock } from '../../../kernel/clock.js';
import type { MagicLinks } from './magic-links.js';
import { AMR_EMAIL_LINK } from '../email-otp/passwordless-sign-in.js';
import type { MagicLinkRecord } from '../email-otp/repository.js';
import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import type { AuthorizeActionOutcome, BrowserContext } from '../../flow/authorize-outcomes.js';
import { HOSTED_EMAIL_OPERATIONS } from '../email-otp/email-otp-steps.js';
import { buildRedirect } from '../../../oauth/authorize/redirect.js';
import {
  TERMINAL_AUTH_REQUEST_STATUSES,
  type AuthRequestRecord,
  type AuthRequestStore,
} from '../../flow/repository.js';

/**
 * The query parameter that hands a direct link's token to its client: the app's backend completes the
 * sign-in with POST /magic-link/complete {token, clientId} (docs/reference/sign-in.md "Sign-in links").
 */
export const MAGIC_LINK_TOKEN_PARAMETER = 'magic_link_token';

/** One page for every link that cannot be used: unknown, used, expired, or its sign-in is over. */
export function magicLinkInvalidError(): SvcHostedPageError {
  return new SvcHostedPageError(
    'This sign-in link is no longer valid',
    'The link was already used, has expired, or belongs to a sign-in that has ended. Go back to the ' +
      'application you came from and ask for a new link.',
    { status: 400, code: 'magic_link_invalid' },
  );
}

/** A hosted link opened in another browser than the one that asked for it (the link is not used up). */
export function magicLinkOtherBrowserError(): SvcHostedPageError {
  return new SvcHostedPageError(
    'Open the link in the browser where you asked for it',
    'For your security, this sign-in link works only in the browser where you asked for it. Open it ' +
      'there, or ask for a new link in this browser.',
    { status: 400, code: 'magic_link_other_browser' },
  );
}

/** What opening a link leads to: the hosted request's next step or client, or the direct link's client. */
export type MagicLinkOutcome =
  AuthorizeActionOutcome | { readonly kind: 'handoff'; readonly location: string };

export interface MagicLinkLandingDeps {
  readonly steps: Pick<AuthRequestSteps, 'load' | 'completeAuthentication'>;
  readonly requests: Pick<AuthRequestStore, 'find'>;
  readonly magicLinks: Pick<MagicLinks, 'find' | 'consume'>;
  /** The client registered under a client_id (active or not). */
  findClient(clientId: string): Promise<ClientRecord | undefined>;
  readonly clock: Clock;
}

/**
 * POST /magic-link, the Continue button of an emailed link's page (GET never uses the link: scanners).
 *
 * - A hosted link (it continues an authorization request): only in the browser bound to that request,
 *   while the request still waits for a sign-in. Then the link is used up and the user signed in, amr
 *   `email`, as after a password. Another browser gets a page saying where to open it; nothing is used.
 * - A direct link (asked for through RequestMagicLinkAsync): handed on unused to its client, at the
 *   client's first registered redirect URI with `magic_link_token`, whose backend completes it.
 * - Anything else (unknown, used, expired; a request that ended): one "no longer valid" page.
 */
export class MagicLinkLanding {
  readonly #deps: MagicLinkLandingDeps;

  constructor(deps: MagicLinkLandingDeps) {
    this.#deps = deps;
  }

  async open(
    token: string | undefined,
    browser: BrowserContext,
    expectedRequestId?: string,
  ): Promise<MagicLinkOutcome> {
    const link =
      token === undefined ? undefined : await this.#deps.magicLinks.find(token, browser.ipAddress ?? null);
    if (token === undefined || link === undefined) throw magicLinkInvalidError();
    // The headless API completes a link for the request it names: a link of any other one is no use here.
    if (expectedRequestId !== undefined && link.authRequestId !== expectedRequestId)
      throw magicLinkInvalidError();
    if (link.authRequestId === null) return this.#handOff(link, token);
    const request = await this.#boundRequest(link.authRequestId, browser);
    // Signed in some other way meanwhile: the link is not needed (and stays unused).
    if (request.status !== 'pending') return { kind: 'next', requestId: request.id };
    if (link.clientId !== request.clientId) throw magicLinkInvalidError();
    const userId = await this.#deps.magicLinks.consume(link, {
      operation: HOSTED_EMAIL_OPERATIONS.linkOpen,
      ipAddress: browser.ipAddress ?? null,
    });
    if (userId === undefined) throw magicLinkInvalidError();
    return this.#deps.steps.completeAuthentication(request, browser, {
      userId,
      amr: [AMR_EMAIL_LINK],
      method: 'magic_link',
    });
  }

  async #handOff(link: MagicLinkRecord, token: string): Promise<MagicLinkOutcome> {
    const client = await this.#deps.findClient(link.clientId);
    const redirectUri = client?.active === true ? client.redirectUris[0] : undefined;
    if (redirectUri === undefined) throw magicLinkInvalidError();
    return { kind: 'handoff', location: buildRedirect(redirectUri, { [MAGIC_LINK_TOKEN_PARAMETER]: token }) };
  }

  /**
   * The link's request when this browser may continue it. A request that is still live but bound to
   * another browser gets its own page; one that ended (or never was) the "no longer valid" page.
   */
  async #boundRequest(requestId: string, browser: BrowserContext): Promise<AuthRequestRecord> {
    try {
      return await this.#deps.steps.load(requestId, browser);
    } catch (error) {
      if (!(error instanceof SvcHostedPageError)) throw error;
    }
    const stored = await this.#deps.requests.find(requestId);
    const live =
      stored !== undefined &&
      stored.expiresAt > this.#deps.clock.now() &&
      !TERMINAL_AUTH_REQUEST_STATUSES.has(stored.status);
    throw live ? magicLinkOtherBrowserError() : magicLinkInvalidError();
  }
}
