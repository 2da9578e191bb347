import type { Clock } from '../../kernel/clock.js';
import type { SamlContinuationHandler } from '../saml/continuations.js';
import { SamlError } from '../saml/errors.js';
import type { SamlSignIn } from '../saml/service-provider.js';
import type { SsoPortalSessions } from './portal-sessions.js';

/** The continuation kind of the portal's test sign-in. */
export const PORTAL_TEST_KIND = 'portal-test';

/** What the portal starts a test sign-in with: the portal session that asked, to be shown the result. */
export function portalTestContinuation(portalSessionId: string): {
  readonly kind: typeof PORTAL_TEST_KIND;
  readonly portalSessionId: string;
} {
  return { kind: PORTAL_TEST_KIND, portalSessionId };
}

export interface PortalTestHandlerDeps {
  readonly sessions: Pick<SsoPortalSessions, 'findById' | 'recordTestResult'>;
  /** The absolute URL of the portal page: where the browser goes back to. */
  readonly portalUrl: string;
  readonly clock: Clock;
}

/**
 * The `portal-test` continuation: the setup portal's test sign-in. It never signs anyone in: it records
 * what the IdP asserted (NameID, email, attributes), or that the answer came through a connection of
 * another organization, for the portal session that started it, and sends the browser back to the
 * portal, which shows the result to that session only.
 *
 * The session is named by the continuation, which Svc stored with the AuthnRequest and which only the
 * answer to that request (its ID and RelayState) reaches; not by the portal cookie, which a browser does
 * not send on the IdP's cross-site POST (SameSite=Lax) nor to the ACS path (the cookie's Path is the
 * portal's). A session that has ended (expired, its link revoked) gets nothing recorded.
 */
export class PortalTestHandler implements SamlContinuationHandler {
  readonly kind = PORTAL_TEST_KIND;
  readonly #deps: PortalTestHandlerDeps;

  constructor(deps: PortalTestHandlerDeps) {
    this.#deps = deps;
  }

  async complete(signIn: SamlSignIn): Promise<string> {
    const { sessions, clock, portalUrl } = this.#deps;
    const sessionId = signIn.continuation['portalSessionId'];
    const session = typeof sessionId === 'string' ? await sessions.findById(sessionId) : undefined;
    if (session === undefined) {
      throw new SamlError(
        'unknown_request',
        'The setup portal session that started this test sign-in has ended. Open the portal again.',
      );
    }
    const connectionId = signIn.connection.id;
    const at = clock.now();
    await sessions.recordTestResult(
      session.id,
      signIn.connection.organizationId === session.organizationId
        ? {
            outcome: 'accepted',
            connectionId,
            at,
            nameId: signIn.nameId,
            nameIdFormat: signIn.nameIdFormat,
            email: signIn.email,
            attributes: signIn.attributes,
          }
        : {
            outcome: 'refused',
            connectionId,
            at,
            message: 'The connection belongs to another organization.',
          },
    );
    return `${portalUrl}#test-result`;
  }
}
