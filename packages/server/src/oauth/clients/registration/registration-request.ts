import { z } from 'zod';
import { isTlsOrLoopback } from '../../../kernel/loopback.js';
import { oauthError } from '../../errors.js';
import { isScopeToken, OPENID_STANDARD_SCOPES } from '../../scopes.js';

/** The grant types a registered (public) client may have (docs/reference/oauth-clients.md "Dynamic client registration"). */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const PUBLIC_CLIENT_GRANTS = ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT] as const;
type PublicClientGrant = (typeof PUBLIC_CLIENT_GRANTS)[number];

/** What the operator configured about registrations (config `dynamicClientRegistration`). */
export interface RegistrationPolicy {
  /**
   * The scope ceiling; empty: any scope within the limits. A client that names no scope is registered
   * with all of it (without one, with the standard OpenID scopes).
   */
  readonly allowedScopes: readonly string[];
  readonly maxScopeCount: number;
  readonly maxScopeLength: number;
}

/** A registration request that passed every rule: what Svc will store and echo. */
export interface RegistrationRequest {
  readonly clientName: string | null;
  readonly redirectUris: readonly string[];
  readonly grantTypes: readonly PublicClientGrant[];
  readonly responseTypes: readonly ['code'];
  readonly scopes: readonly string[];
  readonly clientUri: string | null;
  readonly logoUri: string | null;
  readonly softwareId: string | null;
  readonly softwareVersion: string | null;
}

/** What an error_description may hold (RFC 6749 §5.2: no quote, backslash or non-ASCII), briefly. */
const SHOWABLE = /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,100}$/;

/** A value from the request as an error description may quote it, or `otherwise` when it cannot. */
export function shown(value: string, otherwise: string): string {
  return SHOWABLE.test(value) ? value : otherwise;
}

const MAX_REDIRECT_URIS = 20;
const MAX_URI_LENGTH = 2048;
const CONTROL_CHARS = /\p{Cc}/u;

const label = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !CONTROL_CHARS.test(value), { message: 'must not contain control characters' });
const uri = z.string().max(MAX_URI_LENGTH);

/**
 * RFC 7591 §2's fields that Svc reads, by type and size; any other member is ignored (§2: "the
 * authorization server MUST ignore any client metadata sent by the client that it does not understand").
 */
const requestSchema = z.object({
  redirect_uris: z.array(uri).min(1).max(MAX_REDIRECT_URIS),
  client_name: label(200).optional(),
  grant_types: z.array(z.string().max(200)).max(10).optional(),
  response_types: z.array(z.string().max(200)).max(10).optional(),
  token_endpoint_auth_method: z.string().max(200).optional(),
  scope: z.string().max(16_384).optional(),
  client_uri: uri.optional(),
  logo_uri: uri.optional(),
  software_id: label(200).optional(),
  software_version: label(200).optional(),
});

/**
 * Reads a `POST /register` body (docs/reference/oauth-clients.md "Dynamic client registration"): redirect URIs required, HTTPS or
 * loopback; public clients only (`token_endpoint_auth_method` `none`, no secret); grant types within
 * the public-client set, `response_types` `code`; `scope` within the ceiling and the limits. A broken
 * redirect URI is `invalid_redirect_uri`, anything else `invalid_client_metadata` (RFC 7591 §3.2.2),
 * each naming the field to fix.
 */
export function parseRegistrationRequest(body: unknown, policy: RegistrationPolicy): RegistrationRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw oauthError.invalidClientMetadata('The request body must be a JSON object of client metadata.');
  }
  const parsed = requestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? 'body');
    const problem = `${field}: ${issue?.message ?? 'is not valid'}`;
    throw field === 'redirect_uris'
      ? oauthError.invalidRedirectUri(`${problem} (give 1 to ${MAX_REDIRECT_URIS} absolute URIs).`)
      : oauthError.invalidClientMetadata(`${problem}.`);
  }
  const request = parsed.data;
  const redirectUris = [...new Set(request.redirect_uris)];
  for (const [at, redirectUri] of redirectUris.entries()) {
    const problem = redirectUriProblem(redirectUri);
    if (problem !== undefined) {
      const which = shown(redirectUri, `entry ${at + 1}`);
      throw oauthError.invalidRedirectUri(`redirect_uris: ${which} ${problem}.`);
    }
  }
  const method = request.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') {
    throw oauthError.invalidClientMetadata(
      `token_endpoint_auth_method: Svc registers public clients only, which prove themselves with PKCE: use none, not ${shown(method, 'the method given')}.`,
    );
  }
  const grantTypes = readGrantTypes(request.grant_types ?? []);
  const responseTypes = [...new Set(request.response_types ?? ['code'])];
  if (responseTypes.join(' ') !== 'code') {
    throw oauthError.invalidClientMetadata('response_types: Svc supports code only.');
  }
  return {
    clientName: request.client_name ?? null,
    redirectUris,
    grantTypes,
    responseTypes: ['code'],
    scopes: readScopes(request.scope, policy),
    clientUri: readMetadataUri('client_uri', request.client_uri),
    logoUri: readMetadataUri('logo_uri', request.logo_uri),
    softwareId: request.software_id ?? null,
    softwareVersion: request.software_version ?? null,
  };
}

/** Why `value` cannot be a registered redirect URI, or undefined when it can. */
function redirectUriProblem(value: string): string | undefined {
  if (!URL.canParse(value)) return 'is not an absolute URI';
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'must use https (or http on a loopback address)';
  if (!isTlsOrLoopback(value)) return 'uses plain http, which is allowed only for loopback hosts';
  if (url.hash !== '' || value.includes('#')) return 'must not have a fragment';
  if (url.username !== '' || url.password !== '') return 'must not carry user information';
  return undefined;
}

/**
 * The grant types as stored and echoed: the code flow with its refresh tokens, which every client with
 * redirect URIs has (and docs/reference/oauth-clients.md "Dynamic client registration" requires redirect URIs), plus the device grant when asked for; RFC 7591
 * §3.2.1 lets the server substitute values. Anything else is refused.
 */
function readGrantTypes(requested: readonly string[]): PublicClientGrant[] {
  const grants = new Set<PublicClientGrant>(['authorization_code', 'refresh_token']);
  for (const grant of requested) {
    const known = PUBLIC_CLIENT_GRANTS.find((candidate) => candidate === grant);
    if (known === undefined) {
      throw oauthError.invalidClientMetadata(
        `grant_types: ${shown(grant, 'a grant type given')} is not available to a registered client; use ${PUBLIC_CLIENT_GRANTS.join(', ')}.`,
      );
    }
    grants.add(known);
  }
  return PUBLIC_CLIENT_GRANTS.filter((grant) => grants.has(grant));
}

/**
 * The registered scopes: scope-tokens within the count, the length, the ceiling, and never `auth:*`.
 * Without `scope` (RFC 7591 §2: the server "MAY register a client with a default set of scopes"), the
 * whole ceiling, or without a ceiling the standard OpenID scopes; an empty `scope` asks for none
 * (docs/decisions/oauth-requests-self-described-default-scopes.md).
 */
function readScopes(scope: string | undefined, policy: RegistrationPolicy): string[] {
  if (scope === undefined) {
    return [...(policy.allowedScopes.length > 0 ? policy.allowedScopes : OPENID_STANDARD_SCOPES)];
  }
  const scopes = [...new Set(scope.split(' ').filter((token) => token !== ''))];
  if (scopes.length > policy.maxScopeCount) {
    throw oauthError.invalidClientMetadata(
      `scope: at most ${policy.maxScopeCount} scopes may be registered.`,
    );
  }
  const ceiling = new Set(policy.allowedScopes);
  for (const token of scopes) {
    if (!isScopeToken(token) || token.length > policy.maxScopeLength) {
      throw oauthError.invalidClientMetadata(
        `scope: ${shown(token, 'one of the scopes given')} is not a scope (printable ASCII without quotes or backslashes, at most ${policy.maxScopeLength} characters).`,
      );
    }
    if (token.startsWith('auth:') || (ceiling.size > 0 && !ceiling.has(token))) {
      throw oauthError.invalidClientMetadata(
        ceiling.size > 0
          ? `scope: ${token} is not available to registered clients; they may have ${[...ceiling].join(' ')}.`
          : `scope: ${token} is reserved and cannot be registered.`,
      );
    }
  }
  return scopes;
}

/** client_uri and logo_uri: a web page or image of the client, https (http only on loopback). */
function readMetadataUri(field: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  if (
    !URL.canParse(value) ||
    !['https:', 'http:'].includes(new URL(value).protocol) ||
    !isTlsOrLoopback(value)
  ) {
    throw oauthError.invalidClientMetadata(`${field}: must be an https URL.`);
  }
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') {
    throw oauthError.invalidClientMetadata(`${field}: must not carry user information.`);
  }
  return value;
}
