import {
  authorizationCodeGrant,
  fetchProtectedResource,
  type AuthorizationCodeGrantChecks,
  type Configuration,
  type CustomFetch,
} from 'openid-client';
import { fromLibraryError, OidcRelyingPartyError, unavailable } from './rp-errors.js';

/**
 * GitHub's OAuth 2.0 profile (docs/reference/federation.md: GitHub uses its OAuth profile APIs,
 * no discovery or ID tokens), as the real API behaves:
 *
 * - its token endpoint answers form-encoded unless asked for JSON, and answers its errors with 200
 *   (`error=bad_verification_code`); both are turned into the standard JSON answer the library reads;
 * - its scopes come back comma-separated (`read:user,user:email`);
 * - `/user` and `/user/emails` want `Authorization: Bearer`, `Accept: application/vnd.github+json` and a
 *   `User-Agent` (requests without one are refused with 403);
 * - the email is the primary, verified entry of `/user/emails`, never the public `email` of `/user`,
 *   which GitHub does not verify; the subject is the numeric `id`.
 */

const API_HEADERS = {
  accept: 'application/vnd.github+json',
  'x-github-api-version': '2022-11-28',
};

/** One entry of `GET /user/emails`. */
interface GitHubEmail {
  readonly email?: unknown;
  readonly primary?: unknown;
  readonly verified?: unknown;
}

/**
 * A fetch for GitHub's token endpoint that hands the library a standard answer: form-encoded bodies
 * become JSON, and an `error` answered with 200 becomes a 400, as RFC 6749 §5.2 answers it.
 */
export function gitHubTokenFetch(inner: CustomFetch, tokenEndpoint: string): CustomFetch {
  return async (url, options) => {
    const response = await inner(url, options);
    if (url !== tokenEndpoint || options.method !== 'POST' || response.status >= 500) return response;
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    let body: Record<string, unknown>;
    if (type === 'application/x-www-form-urlencoded' || type === 'text/plain') {
      body = Object.fromEntries(new URLSearchParams(await response.text()));
    } else if (type === 'application/json') {
      try {
        body = (await response.clone().json()) as Record<string, unknown>;
      } catch {
        return response;
      }
      if (
        typeof body !== 'object' ||
        body === null ||
        (response.status === 200 && body.error === undefined)
      ) {
        return response;
      }
    } else {
      return response;
    }
    const status =
      typeof body.error === 'string' ? (response.status === 200 ? 400 : response.status) : response.status;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
}

export interface GitHubProfileInput {
  readonly config: Configuration;
  readonly callbackUrl: URL;
  readonly expectedState: NonNullable<AuthorizationCodeGrantChecks['expectedState']>;
  readonly codeVerifier: string;
  readonly userEndpoint: string;
  readonly emailsEndpoint: string;
}

/**
 * Redeems the code and reads the user: `/user` with the chosen email in place of its own (`email` and
 * `verified`, as the fixed GitHub claim mapping reads them).
 */
export async function gitHubProfile(input: GitHubProfileInput): Promise<Record<string, unknown>> {
  let accessToken: string;
  try {
    const tokens = await authorizationCodeGrant(input.config, input.callbackUrl, {
      pkceCodeVerifier: input.codeVerifier,
      expectedState: input.expectedState,
    });
    accessToken = tokens.access_token;
  } catch (error) {
    throw fromLibraryError('the token request', error);
  }

  const user = await getJson(input.config, accessToken, input.userEndpoint, 'the user API');
  if (typeof user !== 'object' || user === null || Array.isArray(user)) {
    throw new OidcRelyingPartyError('invalid_provider_response', "GitHub's user API did not answer a user.");
  }
  const emails = await getJson(input.config, accessToken, input.emailsEndpoint, 'the emails API', [403, 404]);
  const primary = Array.isArray(emails)
    ? (emails as GitHubEmail[]).find(
        (entry) => entry.primary === true && entry.verified === true && typeof entry.email === 'string',
      )
    : undefined;
  return {
    ...(user as Record<string, unknown>),
    email: primary?.email ?? null,
    verified: primary !== undefined,
  };
}

/**
 * GETs a GitHub API resource with the access token. A status in `absent` means the resource is not
 * there for this token (the emails API without the `user:email` scope): null.
 */
async function getJson(
  config: Configuration,
  accessToken: string,
  url: string,
  what: string,
  absent: readonly number[] = [],
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchProtectedResource(
      config,
      accessToken,
      new URL(url),
      'GET',
      undefined,
      new Headers(API_HEADERS),
    );
  } catch (error) {
    throw fromLibraryError(what, error);
  }
  if (absent.includes(response.status)) {
    await response.body?.cancel();
    return null;
  }
  if (response.status >= 500) throw unavailable(what);
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new OidcRelyingPartyError('provider_error', `GitHub refused ${what} (${response.status}).`, {
      providerError: response.status === 401 ? 'invalid_token' : 'access_denied',
    });
  }
  try {
    return await response.json();
  } catch {
    throw new OidcRelyingPartyError('invalid_provider_response', `GitHub's answer to ${what} is not JSON.`);
  }
}
