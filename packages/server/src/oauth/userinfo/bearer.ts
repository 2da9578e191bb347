/**
 * Bearer tokens at a protected resource (RFC 6750): reading the token from the request and writing the
 * `WWW-Authenticate` challenge.
 */

/** Where the request carried its access token, or why it is malformed. */
export type BearerToken =
  | { readonly kind: 'none' }
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'malformed'; readonly description: string };

/** RFC 6750 §2.1: `credentials = "Bearer" 1*SP b64token` (with trailing spaces tolerated). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const BEARER_SCHEME = /^Bearer(?: |$)/i;

/**
 * The access token of a userinfo request (docs/reference/tokens-and-sessions.md "Userinfo": `Authorization: Bearer` on GET or POST,
 * or an access_token form field on POST):
 * - no Bearer header and no form field → none (another scheme, such as Basic, carries no bearer token)
 * - a Bearer header whose value is not one b64token → malformed
 * - the form field repeated → malformed (RFC 6750 §3.1 "repeats the same parameter")
 * - a token both in the header and in the form → malformed ("uses more than one method")
 */
export function readBearerToken(
  authorizationHeader: string | undefined,
  formAccessToken: string | readonly string[] | undefined,
): BearerToken {
  const header = authorizationHeader ?? '';
  let fromHeader: string | undefined;
  if (BEARER_SCHEME.test(header)) {
    fromHeader = BEARER.exec(header)?.[1];
    if (fromHeader === undefined) {
      return {
        kind: 'malformed',
        description: 'The Authorization header must be Bearer followed by one access token.',
      };
    }
  }
  const formValues = (
    typeof formAccessToken === 'string' ? [formAccessToken] : (formAccessToken ?? [])
  ).filter((value) => value !== '');
  if (formValues.length > 1) {
    return { kind: 'malformed', description: 'The access_token parameter must not be repeated.' };
  }
  const fromForm = formValues[0];
  if (fromHeader !== undefined && fromForm !== undefined) {
    return {
      kind: 'malformed',
      description: 'Send the access token either in the Authorization header or in the form, not both.',
    };
  }
  const token = fromHeader ?? fromForm;
  return token === undefined ? { kind: 'none' } : { kind: 'token', token };
}

/** The error of a Bearer challenge (RFC 6750 §3.1). */
export type BearerErrorCode = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

/**
 * `WWW-Authenticate: Bearer` alone when the request carried no token (RFC 6750 §3.1: "SHOULD NOT include
 * an error code or other error information"), else with `error` and `error_description`. Descriptions
 * are written by Svc; characters a quoted-string cannot hold are dropped all the same.
 */
export function bearerChallenge(error?: { code: BearerErrorCode; description: string }): string {
  if (error === undefined) return 'Bearer';
  const description = error.description.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '');
  return `Bearer error="${error.code}", error_description="${description}"`;
}
