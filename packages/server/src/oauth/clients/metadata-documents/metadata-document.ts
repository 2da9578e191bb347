import { singleHeader } from '../../../kernel/single-header.js';
import { OAuthError } from '../../errors.js';
import {
  parseRegistrationRequest,
  type RegistrationPolicy,
  type RegistrationRequest,
} from '../registration/registration-request.js';

/** draft-ietf-oauth-client-id-metadata-document §"Maximum Response Size": 5 kilobytes recommended. */
export const MAX_DOCUMENT_BYTES = 5_120;

/** How long a fetched copy is used: Cache-Control's max-age within these bounds, else the default. */
export const DOCUMENT_LIFETIME = Object.freeze({
  minSeconds: 60,
  defaultSeconds: 3_600,
  maxSeconds: 86_400,
});

export type ReadDocument =
  | { readonly ok: true; readonly request: RegistrationRequest; readonly lifetimeSeconds: number }
  | { readonly ok: false; readonly problem: string };

/** `application/json`, or a more specific `application/<name>+json` (draft §"Client Metadata Document"). */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a fetched Client ID Metadata Document: JSON whose `client_id` is exactly the URL it came from,
 * with no shared secret (no `client_secret`, `client_secret_expires_at`, nor a secret-based
 * `token_endpoint_auth_method`), and otherwise the rules of a dynamic registration
 * (registration-request.ts): a public client, redirect URIs, the public-client grants, scopes within
 * the ceiling. `problem` says what the client's developer must fix.
 */
export function readMetadataDocument(
  fetched: {
    readonly body: string;
    readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  },
  clientId: string,
  policy: RegistrationPolicy,
): ReadDocument {
  const fail = (problem: string): ReadDocument => ({ ok: false, problem });
  const mediaType = singleHeader(fetched.headers['content-type']) ?? '';
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    return fail('it must be served as application/json');
  }
  let document: unknown;
  try {
    document = JSON.parse(fetched.body);
  } catch {
    return fail('it is not valid JSON');
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return fail('it must be a JSON object of client metadata');
  }
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== clientId) {
    return fail('its client_id must be exactly the URL it is served from');
  }
  if ('client_secret' in fields || 'client_secret_expires_at' in fields) {
    return fail('it must not hold a client_secret: a published document can share no secret');
  }
  try {
    const request = parseRegistrationRequest(fields, policy);
    return {
      ok: true,
      request,
      lifetimeSeconds: lifetimeSeconds(singleHeader(fetched.headers['cache-control'])),
    };
  } catch (error) {
    if (error instanceof OAuthError) return fail(error.message);
    throw error;
  }
}

/**
 * How long to use the copy (RFC 9111 §5.2.2.1 max-age; draft §"Metadata Caching" lets the server bound
 * it): max-age within the bounds; no-store or no-cache, the lower bound; no max-age, the default.
 */
export function lifetimeSeconds(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? '')
    .toLowerCase()
    .split(',')
    .map((directive) => directive.trim());
  if (directives.includes('no-store') || directives.includes('no-cache')) return DOCUMENT_LIFETIME.minSeconds;
  const maxAge = directives.find((directive) => /^max-age=\d+$/.test(directive));
  if (maxAge === undefined) return DOCUMENT_LIFETIME.defaultSeconds;
  const seconds = Number(maxAge.slice('max-age='.length));
  return Math.min(DOCUMENT_LIFETIME.maxSeconds, Math.max(DOCUMENT_LIFETIME.minSeconds, seconds));
}
