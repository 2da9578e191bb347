import { LOOPBACK_HOST } from '../../../kernel/loopback.js';
import { shown } from '../registration/registration-request.js';

/** Past this a client_id is not fetched (the /authorize and /token limit of a client_id). */
const MAX_CLIENT_ID_URL_LENGTH = 2048;

/** Whether a client_id is meant as a metadata document's URL (what Svc never generates: draft §"Supporting both"). */
export function looksLikeDocumentUrl(clientId: string): boolean {
  return clientId.startsWith('https://') || clientId.startsWith('http://');
}

export type ClientIdUrl =
  { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly problem: string };

/**
 * Checks a client_id as a Client ID Metadata Document URL (draft-ietf-oauth-client-id-metadata-document
 * §3): `https`, a path, no dot segments, no fragment, no user name or password; a port and a query are
 * allowed. It must be written as the URL parser writes it (lower-case host, no default port, no dot
 * segments), so one document has exactly one client_id. `http` only on a loopback host, and only with
 * `loopback` (SVC_CIMD_ALLOW_LOOPBACK).
 */
export function readClientIdUrl(clientId: string, options: { readonly loopback: boolean }): ClientIdUrl {
  const fail = (problem: string): ClientIdUrl => ({ ok: false, problem });
  if (clientId.length > MAX_CLIENT_ID_URL_LENGTH) {
    return fail(`it is longer than ${MAX_CLIENT_ID_URL_LENGTH} characters`);
  }
  if (!URL.canParse(clientId)) return fail('it is not a URL');
  const url = new URL(clientId);
  const loopbackHttp = options.loopback && url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    return fail(options.loopback ? 'it must use https (http only on a loopback host)' : 'it must use https');
  }
  if (url.username !== '' || url.password !== '') return fail('it must not hold a user name or password');
  if (clientId.includes('#')) return fail('it must not have a fragment');
  if (url.pathname === '/') return fail('it must have a path, such as /oauth/client.json');
  if (url.href !== clientId) {
    return fail(
      `it must be written in its normal form (${shown(url.href, 'as a URL parser writes it')}), without dot segments`,
    );
  }
  return { ok: true, url };
}

/** Whether documents may come from `hostname` (patterns from config: `app.example.com`, `*.example.com`). */
export function hostAllowed(hostname: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  return patterns.some((pattern) =>
    pattern.startsWith('*.') ? hostname.endsWith(pattern.slice(1)) : hostname === pattern,
  );
}
