import type { Svc } from '../app/create-svc.js';
import { form } from './oauth-http.js';

/** What a session's holder presents: its current access and refresh tokens. */
export interface HeldTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
}

/**
 * What a session allows right now, asked the way its holder would: userinfo's status with the access
 * token, in-process validation for the client's audience, and a refresh at /token (`ok`, or the OAuth
 * error) whose rotated tokens are in `next`.
 */
export interface SessionProbe {
  readonly userinfo: number;
  readonly validated: boolean;
  readonly refresh: string;
  readonly next?: HeldTokens;
}

/**
 * Probes, through `svc` (a test's, or one node of a cluster), the session behind `tokens` of the public
 * `client`; the refresh rotates it: use `next` afterwards.
 */
export async function probeSession(
  svc: Pick<Svc, 'app' | 'auth' | 'config'>,
  tokens: HeldTokens,
  client: { readonly clientId: string; readonly audience: string },
): Promise<SessionProbe> {
  const base = svc.config.authBase;
  const userinfo = await svc.app.inject({
    method: 'GET',
    url: `${base}/userinfo`,
    headers: { authorization: `Bearer ${tokens.accessToken}` },
  });
  const validated = await svc.auth.validateAccessTokenAsync(tokens.accessToken, client.audience);
  const refreshed = await svc.app.inject({
    method: 'POST',
    url: `${base}/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({
      grant_type: 'refresh_token',
      refresh_token: tokens.refreshToken,
      client_id: client.clientId,
    }),
  });
  const body = refreshed.json<{ error?: string; access_token?: string; refresh_token?: string }>();
  const probe = { userinfo: userinfo.statusCode, validated: validated !== null };
  return refreshed.statusCode === 200
    ? {
        ...probe,
        refresh: 'ok',
        next: { accessToken: body.access_token ?? '', refreshToken: body.refresh_token ?? '' },
      }
    : { ...probe, refresh: body.error ?? String(refreshed.statusCode) };
}

/** The probe of a session that deactivation ended: every use refused, refresh with `refreshError`. */
export function endedSession(refreshError = 'invalid_grant'): SessionProbe {
  return { userinfo: 401, validated: false, refresh: refreshError };
}
