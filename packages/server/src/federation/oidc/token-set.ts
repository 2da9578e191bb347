import type { TokenEndpointResponse } from 'oauth4webapi';

/**
 * What a provider's token endpoint granted, for a caller that keeps the tokens (calendar connections).
 * Never logged and never part of an error: the holder seals it.
 */
export interface OidcTokenSet {
  readonly accessToken: string;
  /** Null when the provider issued none (Google without `access_type=offline`; a refresh that keeps it). */
  readonly refreshToken: string | null;
  /** Seconds the access token lives (`expires_in`); null when the provider did not say. */
  readonly expiresIn: number | null;
  /** The granted scopes (`scope`); null when the provider did not say (RFC 6749 §5.1: as asked). */
  readonly scope: string | null;
}

export function tokenSetOf(response: TokenEndpointResponse): OidcTokenSet {
  const expiresIn = response.expires_in;
  return {
    accessToken: response.access_token,
    refreshToken:
      typeof response.refresh_token === 'string' && response.refresh_token !== ''
        ? response.refresh_token
        : null,
    expiresIn:
      typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : null,
    scope: typeof response.scope === 'string' ? response.scope : null,
  };
}
