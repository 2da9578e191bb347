import type { TokenEndpointAuthMethod } from '@svc/contract';
import type { ClientRecord } from '../../directory/repository.js';
import { safeEqual, sha256Hex } from '../../kernel/crypto.js';
import { retryAfterPhrase } from '../../kernel/errors.js';
import type { RejectedSecretLimit } from '../../ratelimit/rejected-secret-limit.js';
import { BASIC_CHALLENGE, type OAuthError, oauthError } from '../errors.js';

/**
 * Client authentication at the token endpoint (docs/reference/oauth-clients.md "Client authentication", RFC 6749 §2.3.1):
 * - `client_secret_basic`: `Authorization: Basic base64(urlencode(client_id) ":" urlencode(secret))`;
 *   both parts are form-urlencoded before Base64 and Svc decodes both (docs/reference/oauth-clients.md "The client registry").
 * - `client_secret_post`: `client_id` and `client_secret` in the form body.
 * - `none` (public clients): `client_id` only; a public client that sends a secret is refused, so that
 *   a leaked "secret" never looks like proof of anything.
 * A client authenticates only with the method it registered (the token endpoint; the direct helpers
 * accept either secret method, see ClientAuthenticationPolicy), and with one method per request
 * (RFC 6749 §2.3: "MUST NOT use more than one authentication method in each request").
 */

/** The credentials a token request carries; body fields as parsed (a repeated field is an array). */
export interface ClientCredentialsInput {
  readonly authorizationHeader?: string | undefined;
  readonly bodyClientId?: string | readonly string[] | undefined;
  readonly bodyClientSecret?: string | readonly string[] | undefined;
  /** The caller's address, which rejected secrets are counted against (none: not counted). */
  readonly ipAddress?: string | null | undefined;
}

export interface ClientAuthenticationDeps {
  /** The client registered under a client_id (active or not), or undefined. */
  findClient(clientId: string): Promise<ClientRecord | undefined> | ClientRecord | undefined;
  /** Rejected secrets per client and address (config.failureLimits.clientSecretIp); none: not counted. */
  readonly rejectedSecrets?: Pick<RejectedSecretLimit, 'lockedFor' | 'reject'> | undefined;
}

/** How strictly the registered token_endpoint_auth_method is held to. */
export interface ClientAuthenticationPolicy {
  /**
   * A confidential client may send its secret by either method, whichever it registered (the direct
   * JSON helpers: HTTP Basic or `clientSecret` in the JSON body,
   * docs/reference/sign-in.md "Direct JSON helpers"). A public client still authenticates
   * only as `none`. The token endpoint leaves this off.
   */
  readonly eitherSecretMethod?: boolean;
}

/** Why authentication failed, for the audit log; never shown to the caller. */
export type ClientAuthenticationFailure =
  | 'malformed'
  | 'multiple_methods'
  | 'client_id_mismatch'
  | 'missing_credentials'
  | 'unknown_client'
  | 'inactive_client'
  | 'method_mismatch'
  | 'secret_mismatch'
  /** Too many wrong secrets for the client from the address: refused before any look-up (retryAfterMs). */
  | 'locked';

export type ClientAuthenticationResult =
  | { readonly ok: true; readonly client: ClientRecord; readonly method: TokenEndpointAuthMethod }
  | {
      readonly ok: false;
      readonly error: OAuthError;
      readonly reason: ClientAuthenticationFailure;
      /** The client_id the caller presented, when one could be read (for the audit log). */
      readonly clientId: string | null;
      /** For `locked`: how long (ms) until the address may try again. */
      readonly retryAfterMs?: number;
    };

/** The longest client_id looked up; longer or control-bearing values are refused without a query. */
const MAX_CLIENT_ID_LENGTH = 2048;
const CONTROL = /\p{Cc}/u;

/** Whether a client_id may be looked up at all (a control character would fail the PostgreSQL query). */
export function isLookupableClientId(clientId: string): boolean {
  return clientId !== '' && clientId.length <= MAX_CLIENT_ID_LENGTH && !CONTROL.test(clientId);
}

/** A hash compared against when there is no stored one, so that every failure costs the same work. */
const NO_SECRET_HASH = sha256Hex('svc: no client secret');

/** The one public message of a failed authentication: it never tells which part was wrong. */
const FAILED = 'Client authentication failed.';

/** The answer to a client locked for an address that sent too many wrong secrets: 429 and how long to wait. */
function locked(clientId: string | null, retryAfterMs: number): ClientAuthenticationResult {
  const description = `Too many wrong secrets for this client from this address; retry ${retryAfterPhrase(retryAfterMs)}.`;
  return {
    ok: false,
    reason: 'locked',
    clientId,
    retryAfterMs,
    error: oauthError.invalidClient(description, { status: 429 }),
  };
}

/** True when the request identifies a client at all (header, body client_id or body client_secret). */
export function hasClientCredentials(input: ClientCredentialsInput): boolean {
  return (
    input.authorizationHeader !== undefined ||
    single(input.bodyClientId) !== undefined ||
    single(input.bodyClientSecret) !== undefined
  );
}

/**
 * Authenticates the client of a token request. Never throws for bad input: the result is the client
 * and the method it used, or an OAuthError (invalid_client 401, with a Basic challenge when the header
 * was used; invalid_request 400 for a request that mixes methods or names two different clients).
 */
export async function authenticateClient(
  input: ClientCredentialsInput,
  deps: ClientAuthenticationDeps,
  policy: ClientAuthenticationPolicy = {},
): Promise<ClientAuthenticationResult> {
  const viaHeader = input.authorizationHeader !== undefined;
  const fail = (
    reason: ClientAuthenticationFailure,
    clientId: string | null,
  ): ClientAuthenticationResult => ({
    ok: false,
    reason,
    clientId,
    error:
      reason === 'multiple_methods' || reason === 'client_id_mismatch'
        ? oauthError.invalidRequest(
            reason === 'multiple_methods'
              ? 'Use only one client authentication method per request.'
              : 'The client_id in the body does not match the authenticated client.',
          )
        : oauthError.invalidClient(FAILED, viaHeader ? { wwwAuthenticate: BASIC_CHALLENGE } : {}),
  });

  const bodyClientId = single(input.bodyClientId);
  const bodySecret = single(input.bodyClientSecret);
  if (bodyClientId === false || bodySecret === false) {
    return {
      ok: false,
      reason: 'malformed',
      clientId: null,
      error: oauthError.invalidRequest('The client_id and client_secret parameters must not be repeated.'),
    };
  }

  let clientId: string;
  let secret: string | undefined;
  let method: TokenEndpointAuthMethod;
  if (input.authorizationHeader !== undefined) {
    const basic = parseBasic(input.authorizationHeader);
    if (basic === undefined) return fail('malformed', null);
    if (bodySecret !== undefined) return fail('multiple_methods', basic.clientId);
    if (bodyClientId !== undefined && bodyClientId !== basic.clientId) {
      return fail('client_id_mismatch', basic.clientId);
    }
    ({ clientId, secret } = basic);
    method = 'client_secret_basic';
  } else if (bodyClientId !== undefined) {
    clientId = bodyClientId;
    secret = bodySecret;
    method = bodySecret === undefined ? 'none' : 'client_secret_post';
  } else {
    // Nothing names the client: a secret alone identifies no one (RFC 6749 §5.2 invalid_client).
    return fail('missing_credentials', null);
  }

  const lookupable = isLookupableClientId(clientId);
  const presented = lookupable ? clientId : null;
  // A secret is a guess until it matches: counted per client and address when wrong, refused while locked.
  const limit = method === 'none' || !lookupable ? undefined : deps.rejectedSecrets;
  const address = input.ipAddress ?? null;
  const lockedFor = limit === undefined || address === null ? undefined : limit.lockedFor(clientId, address);
  if (lockedFor !== undefined) return locked(presented, lockedFor);
  const client = lookupable ? await deps.findClient(clientId) : undefined;
  // Hash and compare even when the client is unknown, so that timing does not reveal which client_ids exist.
  const secretMatches = safeEqual(sha256Hex(secret ?? ''), client?.clientSecretHash ?? NO_SECRET_HASH);
  if (client === undefined) return fail(lookupable ? 'unknown_client' : 'malformed', presented);
  if (!client.active) return fail('inactive_client', presented);
  const registered = client.tokenEndpointAuthMethod;
  const methodAccepted =
    registered === method ||
    (policy.eitherSecretMethod === true && registered !== 'none' && method !== 'none');
  if (!methodAccepted) return fail('method_mismatch', presented);
  if (method !== 'none' && (client.clientSecretHash === null || !secretMatches)) {
    const retryAfterMs =
      limit === undefined || address === null ? undefined : await limit.reject(clientId, address);
    return retryAfterMs === undefined ? fail('secret_mismatch', presented) : locked(presented, retryAfterMs);
  }
  return { ok: true, client, method };
}

/**
 * A single string; undefined when absent or empty ("Parameters sent without a value MUST be treated as
 * if they were omitted", RFC 6749 §3.2); false when repeated or not a string.
 */
function single(value: string | readonly string[] | undefined): string | undefined | false {
  const one = typeof value === 'string' ? value : value?.length === 1 ? value[0] : value;
  if (one === undefined || one === '') return undefined;
  return typeof one === 'string' ? one : false;
}

/**
 * Reads `Basic <base64(id:secret)>` with both parts form-urlencoded (RFC 6749 §2.3.1, Appendix B):
 * `+` is a space and `%XX` an octet of UTF-8. Undefined for any other scheme or a malformed value.
 */
export function parseBasic(header: string): { clientId: string; secret: string } | undefined {
  const match = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header);
  const encoded = match?.[1];
  if (encoded === undefined || encoded.length % 4 !== 0) return undefined;
  const decoded = Buffer.from(encoded, 'base64');
  // Strict: the Base64 must round-trip and the credentials must be valid UTF-8.
  if (decoded.toString('base64') !== encoded) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(decoded);
  } catch {
    return undefined;
  }
  const colon = text.indexOf(':');
  if (colon === -1) return undefined;
  const clientId = formDecode(text.slice(0, colon));
  const secret = formDecode(text.slice(colon + 1));
  if (clientId === undefined || secret === undefined || clientId === '') return undefined;
  return { clientId, secret };
}

/** application/x-www-form-urlencoded decoding of one value; undefined when a %-escape is malformed. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}
