import type { CalendarProviderType } from '@svc/contract';
import type { OidcRedemption } from '../federation/oidc/relying-party.js';
import type { Clock } from '../kernel/clock.js';
import type { SecretBox } from '../kernel/crypto.js';
import type { Ids } from '../kernel/ids.js';
import type { CalendarConnectionRepository } from './repository.js';
import { openTokens, sealTokens } from './sealed-tokens.js';

/**
 * Google and Microsoft always say how long an access token lives (`expires_in`, an hour); a provider that
 * does not is taken to give an hour too.
 */
const ASSUMED_LIFETIME_SECONDS = 3600;

/** When an access token granted at `now` for `expiresIn` seconds expires. */
export function expiryOf(now: number, expiresIn: number | null): number {
  return now + (expiresIn ?? ASSUMED_LIFETIME_SECONDS) * 1000;
}

export interface StoreConsentDeps {
  readonly repository: Pick<CalendarConnectionRepository, 'insert' | 'findByAccount' | 'reconnect'>;
  readonly secrets: Pick<SecretBox, 'encrypt' | 'decrypt'>;
  readonly clock: Clock;
  readonly ids: Pick<Ids, 'id'>;
}

export interface ConsentToStore {
  readonly userId: string;
  readonly connectionId: string;
  readonly providerType: CalendarProviderType;
  readonly redemption: OidcRedemption;
  readonly scopes: readonly string[];
  readonly accessTokenExpiresAt: number;
}

/**
 * Keeps a consent's tokens sealed: a new connection, or the user's existing one for the same account at
 * the same provider connection (its id kept, whatever its state: a revoked or refused connection comes
 * back). A refresh token the provider did not send again is kept. Two attempts, for a connection
 * inserted or deleted by a concurrent consent in between.
 */
export async function storeConsent(
  deps: StoreConsentDeps,
  consent: ConsentToStore,
): Promise<{ readonly id: string; readonly created: boolean; readonly offlineAccess: boolean }> {
  const { repository, secrets, clock } = deps;
  const { redemption } = consent;
  const account = {
    accountIssuer: redemption.issuer,
    accountEmail: redemption.identity.email,
    scopes: consent.scopes,
    accessTokenExpiresAt: consent.accessTokenExpiresAt,
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    const now = clock.now();
    const existing = await repository.findByAccount(
      consent.userId,
      consent.connectionId,
      redemption.identity.subject,
    );
    if (existing !== undefined) {
      const kept =
        existing.tokensSealed === null ? null : openTokens(secrets, existing.id, existing.tokensSealed);
      const refreshToken = redemption.tokens.refreshToken ?? kept?.refreshToken ?? null;
      const tokens = { accessToken: redemption.tokens.accessToken, refreshToken };
      const written = await repository.reconnect(
        existing.id,
        {
          ...account,
          tokensSealed: sealTokens(secrets, existing.id, tokens),
          offlineAccess: refreshToken !== null,
        },
        now,
      );
      if (written !== undefined)
        return { id: existing.id, created: false, offlineAccess: refreshToken !== null };
      continue;
    }
    const id = deps.ids.id('cal');
    const refreshToken = redemption.tokens.refreshToken;
    const inserted = await repository.insert({
      id,
      userId: consent.userId,
      connectionId: consent.connectionId,
      providerType: consent.providerType,
      accountSubject: redemption.identity.subject,
      ...account,
      tokensSealed: sealTokens(secrets, id, { accessToken: redemption.tokens.accessToken, refreshToken }),
      offlineAccess: refreshToken !== null,
      status: 'active',
      version: 1,
      createdAt: now,
      updatedAt: now,
      lastRefreshedAt: null,
      revokedAt: null,
    });
    if (inserted) return { id, created: true, offlineAccess: refreshToken !== null };
  }
  throw new Error('The calendar connection changed twice while it was being stored.');
}
