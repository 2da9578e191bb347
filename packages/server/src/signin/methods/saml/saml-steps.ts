import type { AuditLog } from '../../../audit/audit-log.js';
import { AMR_FEDERATED } from '../../../federation/oidc/oidc-sign-in.js';
import { signInExpired } from '../../../federation/saml/assertion-consumer.js';
import { SamlError } from '../../../federation/saml/errors.js';
import type { HomeRealmDiscovery } from '../../../federation/saml/home-realm.js';
import type { SamlAccounts } from '../../../federation/saml/saml-accounts.js';
import type { SamlServiceProvider, SamlSignIn } from '../../../federation/saml/service-provider.js';
import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import type { AuthorizeActionOutcome, BrowserContext } from '../../flow/authorize-outcomes.js';
import { SvcHostedPageError } from '../../flow/page-error.js';
import type { AuthRequestRecord } from '../../flow/repository.js';

/** The continuation kind of a sign-in request of the engine (federation/saml/continuations.ts). */
export const SAML_SIGN_IN_KIND = 'sign-in';

/** The hosted-login method of a SAML sign-in, as the audit trail names it. */
export const SAML_METHOD = 'saml';

export interface SamlSignInDeps {
  readonly realms: Pick<HomeRealmDiscovery, 'realmOf'>;
  readonly serviceProvider: Pick<SamlServiceProvider, 'startAuthentication'>;
  readonly accounts: Pick<SamlAccounts, 'resolve'>;
  readonly audit: AuditLog;
}

/**
 * Sign-in through an organization's SAML IdP as a step of an authorization request
 * (docs/reference/federation.md "Home-realm discovery"): `claim` sends an identified email of an SSO realm
 * to the IdP, with the request's id as the continuation; `complete` continues the request once the
 * answer is accepted, only in the browser bound to it, and signs the account in to the connection's
 * organization like any other method (MFA and consent follow), with `amr: ["fed"]`.
 */
export class SamlSteps {
  readonly #steps: AuthRequestSteps;
  readonly #deps: SamlSignInDeps;

  constructor(steps: AuthRequestSteps, deps: SamlSignInDeps) {
    this.#steps = steps;
    this.#deps = deps;
  }

  /** Home-realm discovery: the IdP of the email's realm, or undefined (another method's, the password). */
  async claim(request: AuthRequestRecord): Promise<AuthorizeActionOutcome | undefined> {
    if (request.email === null || request.status !== 'pending') return undefined;
    const realm = await this.#deps.realms.realmOf(request.email);
    if (realm === undefined) return undefined;
    try {
      const { redirectUrl } = await this.#deps.serviceProvider.startAuthentication(realm.connectionId, {
        kind: SAML_SIGN_IN_KIND,
        authRequestId: request.id,
      });
      return { kind: 'redirect', location: redirectUrl };
    } catch (error) {
      // Disabled a moment ago: the address signs in like any other.
      if (error instanceof SamlError) return undefined;
      throw error;
    }
  }

  /**
   * Continues the request an accepted answer was started for, in this browser only: another browser's,
   * an ended or an expired request is the one "no longer valid" refusal, before any account is touched.
   * Throws a SamlError when the answer signs no account in (saml-accounts.ts says why).
   */
  async complete(signIn: SamlSignIn, browser: BrowserContext): Promise<AuthorizeActionOutcome> {
    const authRequestId = signIn.continuation['authRequestId'];
    if (typeof authRequestId !== 'string') throw signInExpired();
    const request = await this.#steps.load(authRequestId, browser).catch((error: unknown) => {
      throw error instanceof SvcHostedPageError ? signInExpired() : error;
    });
    // Signed in some other way meanwhile (another tab): nothing is linked.
    if (request.status !== 'pending') return { kind: 'next', requestId: request.id };
    const place = {
      clientId: request.clientId,
      ...(browser.ipAddress === undefined ? {} : { ipAddress: browser.ipAddress }),
    };
    const account = await this.#deps.accounts.resolve(signIn, place);
    await this.#deps.audit.record({
      kind: 'saml.sign_in.completed',
      actorType: 'user',
      actorId: account.user.id,
      userId: account.user.id,
      organizationId: account.organizationId,
      ...place,
      data: { connectionId: signIn.connection.id, userCreated: account.kind === 'created' },
    });
    return this.#steps.completeAuthentication(request, browser, {
      userId: account.user.id,
      amr: [AMR_FEDERATED],
      method: SAML_METHOD,
      organizationId: account.organizationId,
    });
  }
}
