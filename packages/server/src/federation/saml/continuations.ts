import type { SamlSignIn } from './service-provider.js';

/** Where the browser goes after a continuation, with the issuer session it started (for its cookie). */
export interface SamlContinuationRedirect {
  readonly location: string;
  readonly session?: { readonly token: string; readonly expiresAt: number };
}

/** Where the browser is, for the audit trail. */
export interface SamlBrowserPlace {
  readonly ipAddress?: string | undefined;
  /** The browser's `User-Agent` (cut to 512 characters), for a token session its sign-in starts. */
  readonly userAgent?: string | undefined;
}

/**
 * What an accepted SAML answer goes on to, by the `kind` of the continuation its sign-in was started
 * with (`SamlServiceProvider.startAuthentication`). The ACS route takes the answer once, in the browser
 * that carries the cookies, and hands it to the handler of that kind; kinds: `sign-in` (a sign-in
 * request of the engine), `sso-authorization` (`/sso/authorization-url`), `request-token` (the direct
 * request-token flow), `portal-test` (the setup portal's test sign-in).
 */
export interface SamlContinuationHandler {
  readonly kind: string;
  /**
   * Acts on the sign-in and answers where the browser goes next (a 303), as a URL or with the issuer
   * session it started. Throws a `SamlError` when the sign-in cannot go on; the ACS route shows it as
   * its error page.
   */
  complete(
    signIn: SamlSignIn,
    cookies: Readonly<Record<string, string | undefined>>,
    place: SamlBrowserPlace,
  ): Promise<string | SamlContinuationRedirect>;
}

/** The continuation's kind, or undefined when it has none. */
export function continuationKind(signIn: Pick<SamlSignIn, 'continuation'>): string | undefined {
  const kind = signIn.continuation['kind'];
  return typeof kind === 'string' ? kind : undefined;
}
