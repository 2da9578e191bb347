import type { AuditLog } from '../../audit/audit-log.js';
import { lookUpHandedOut, type HandedOutTokenLimit } from '../../ratelimit/handed-out-tokens.js';
import {
  continuationKind,
  type SamlBrowserPlace,
  type SamlContinuationHandler,
  type SamlContinuationRedirect,
} from './continuations.js';
import { SamlError } from './errors.js';
import type { SamlServiceProvider, SamlSignIn } from './service-provider.js';
import type { SamlSignInHandles } from './sign-in-handles.js';

export interface SamlAssertionConsumerDeps {
  readonly serviceProvider: Pick<SamlServiceProvider, 'consume'>;
  readonly handles: Pick<SamlSignInHandles, 'keep' | 'take'>;
  /** One handler per continuation kind ('sign-in', 'sso-authorization', 'request-token', 'portal-test'). */
  readonly handlers: readonly SamlContinuationHandler[];
  /** Handles that continue nothing, counted per address with every handed-out token. */
  readonly tokenChecks: HandedOutTokenLimit;
  readonly audit: AuditLog;
}

/**
 * The two halves of the ACS (docs/reference/federation.md "The ACS"): `accept` checks the IdP's cross-site
 * post and keeps the accepted answer under a one-time handle; `continue`, on the browser's GET that carries
 * its cookies, takes the answer once and hands it to the handler of its continuation's kind. Every
 * refusal is a SamlError (a 400 page) and is audited: `saml.response.refused` for an answer that was
 * not accepted, `saml.sign_in.refused` for one that could not go on; an accepted one as
 * `saml.response.accepted`.
 */
export class SamlAssertionConsumer {
  readonly #deps: SamlAssertionConsumerDeps;
  readonly #handlers = new Map<string, SamlContinuationHandler>();

  constructor(deps: SamlAssertionConsumerDeps) {
    this.#deps = deps;
    for (const handler of deps.handlers) {
      if (this.#handlers.has(handler.kind)) {
        throw new Error(`SAML continuation kind ${handler.kind} is registered twice.`);
      }
      this.#handlers.set(handler.kind, handler);
    }
  }

  /** Accepts the posted answer; answers the handle the browser continues with. */
  async accept(
    connectionId: string,
    samlResponse: string | undefined,
    relayState: string | undefined,
    place: SamlBrowserPlace = {},
  ): Promise<string> {
    let signIn: SamlSignIn;
    try {
      signIn = await this.#deps.serviceProvider.consume(connectionId, samlResponse, relayState);
    } catch (error) {
      if (error instanceof SamlError) {
        await this.#deps.audit.record({
          kind: 'saml.response.refused',
          actorType: 'user',
          ...ip(place),
          data: { connectionId: printable(connectionId), error: error.code },
        });
      }
      throw error;
    }
    await this.#deps.audit.record({
      kind: 'saml.response.accepted',
      actorType: 'user',
      organizationId: signIn.connection.organizationId,
      ...ip(place),
      data: { connectionId: signIn.connection.id, continuation: continuationKind(signIn) ?? null },
    });
    return this.#deps.handles.keep(signIn);
  }

  /** Takes the answer kept under `handle` and answers where the browser goes next. */
  async continue(
    handle: string | undefined,
    cookies: Readonly<Record<string, string | undefined>>,
    place: SamlBrowserPlace = {},
  ): Promise<SamlContinuationRedirect> {
    const signIn =
      handle === undefined
        ? undefined
        : await lookUpHandedOut(this.#deps.tokenChecks, place.ipAddress, () =>
            this.#deps.handles.take(handle),
          );
    if (signIn === undefined) {
      await this.#refused(undefined, 'sign_in_expired', place);
      throw signInExpired();
    }
    const kind = continuationKind(signIn);
    const handler = kind === undefined ? undefined : this.#handlers.get(kind);
    if (handler === undefined) {
      await this.#refused(signIn, 'sign_in_expired', place);
      throw signInExpired();
    }
    try {
      const next = await handler.complete(signIn, cookies, place);
      return typeof next === 'string' ? { location: next } : next;
    } catch (error) {
      if (error instanceof SamlError) await this.#refused(signIn, error.code, place);
      throw error;
    }
  }

  #refused(signIn: SamlSignIn | undefined, reason: string, place: SamlBrowserPlace): Promise<void> {
    return this.#deps.audit.record({
      kind: 'saml.sign_in.refused',
      actorType: 'user',
      ...(signIn === undefined ? {} : { organizationId: signIn.connection.organizationId }),
      ...ip(place),
      data: {
        reason,
        ...(signIn === undefined
          ? {}
          : { connectionId: signIn.connection.id, continuation: continuationKind(signIn) ?? null }),
      },
    });
  }
}

/** The one refusal of an answer that cannot go on in this browser (replayed handle, unknown kind…). */
export function signInExpired(): SamlError {
  return new SamlError(
    'sign_in_expired',
    'This sign-in is no longer valid: it expired, was already completed, or was started in another ' +
      'browser. Go back to the application you came from and sign in again.',
  );
}

function ip(place: SamlBrowserPlace): { ipAddress?: string } {
  return place.ipAddress === undefined ? {} : { ipAddress: place.ipAddress };
}

/** A path id as the audit trail may hold it: printable and short (it is whatever the post named). */
function printable(value: string): string {
  return value.replace(/[^\x21-\x7e]/g, '?').slice(0, 200);
}
