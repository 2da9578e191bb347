import type { SvcCalendarAccessToken } from '@svc/contract';
import type { AuditLog } from '../audit/audit-log.js';
import type { OidcConnections } from '../federation/oidc/enabled-connections.js';
import type { OidcRelyingParty } from '../federation/oidc/relying-party.js';
import { OidcRelyingPartyError } from '../federation/oidc/rp-errors.js';
import type { OidcTokenSet } from '../federation/oidc/token-set.js';
import { MINUTE_MS, toIso, type Clock } from '../kernel/clock.js';
import type { SecretBox } from '../kernel/crypto.js';
import { SvcConflictError, SvcNotFoundError } from '../kernel/errors.js';
import type { CalendarAccounts } from './calendar-consent.js';
import { SvcCalendarError } from './errors.js';
import type { CalendarConnectionRecord, CalendarConnectionRepository } from './repository.js';
import { openTokens, sealTokens, type CalendarTokens } from './sealed-tokens.js';
import { expiryOf } from './store-consent.js';

/** An access token is handed out only while it has at least this long to live; else it is refreshed. */
export const ACCESS_TOKEN_MARGIN_MS = MINUTE_MS;

export interface CalendarAccessDeps {
  readonly repository: Pick<
    CalendarConnectionRepository,
    'findById' | 'storeRefreshed' | 'markReauthorizationRequired'
  >;
  readonly connections: Pick<OidcConnections, 'findEnabled'>;
  readonly relyingParty: Pick<OidcRelyingParty, 'refresh'>;
  readonly accounts: Pick<CalendarAccounts, 'findUser'>;
  readonly secrets: Pick<SecretBox, 'encrypt' | 'decrypt'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
}

/**
 * The provider access token of a calendar connection, for the host app to call the calendar API with:
 * the stored one while it has a minute left, else a new one from the refresh token (a rotated refresh
 * token stored). A refresh the provider refuses (`invalid_grant`) marks the connection as needing a new
 * consent. Concurrent calls on one node share one refresh; across nodes, a refresh stores its answer only
 * over the row it read (the version), and a loser reads the winner's.
 */
export class CalendarAccess {
  readonly #deps: CalendarAccessDeps;
  readonly #inFlight = new Map<string, Promise<SvcCalendarAccessToken>>();

  constructor(deps: CalendarAccessDeps) {
    this.#deps = deps;
  }

  async accessToken(calendarConnectionId: string): Promise<SvcCalendarAccessToken> {
    let pending = this.#inFlight.get(calendarConnectionId);
    if (pending === undefined) {
      pending = this.#accessToken(calendarConnectionId, true).finally(() =>
        this.#inFlight.delete(calendarConnectionId),
      );
      this.#inFlight.set(calendarConnectionId, pending);
    }
    return pending;
  }

  async #accessToken(id: string, again: boolean): Promise<SvcCalendarAccessToken> {
    const record = await this.#deps.repository.findById(id);
    if (record === undefined) throw new SvcNotFoundError('There is no calendar connection with this id.');
    if ((await this.#deps.accounts.findUser(record.userId))?.active !== true) {
      throw new SvcCalendarError('user_inactive', "The calendar connection's user is deactivated.");
    }
    if (record.status === 'revoked' || record.tokensSealed === null) {
      throw new SvcCalendarError('connection_revoked', 'The calendar connection was revoked.');
    }
    if (record.status === 'reauthorization_required') throw reauthorizationRequired();
    const tokens = openTokens(this.#deps.secrets, record.id, record.tokensSealed);
    const expiresAt = record.accessTokenExpiresAt;
    if (expiresAt !== null && expiresAt - ACCESS_TOKEN_MARGIN_MS > this.#deps.clock.now()) {
      return view(record, tokens.accessToken, expiresAt, record.scopes);
    }
    return this.#refresh(record, tokens, again);
  }

  async #refresh(
    record: CalendarConnectionRecord,
    tokens: CalendarTokens,
    again: boolean,
  ): Promise<SvcCalendarAccessToken> {
    if (tokens.refreshToken === null) return this.#refused(record, 'no_refresh_token', again);
    const connection = await this.#deps.connections.findEnabled(record.connectionId);
    if (connection === undefined) {
      throw new SvcCalendarError(
        'connection_unavailable',
        "The calendar connection's provider connection is disabled.",
      );
    }
    let refreshed: OidcTokenSet;
    try {
      refreshed = await this.#deps.relyingParty.refresh(connection, {
        refreshToken: tokens.refreshToken,
        issuer: record.accountIssuer,
      });
    } catch (error) {
      if (!(error instanceof OidcRelyingPartyError)) throw error;
      if (error.code === 'provider_error' && error.providerError === 'invalid_grant') {
        return this.#refused(record, 'refresh_refused', again);
      }
      throw error.code === 'provider_unavailable'
        ? new SvcCalendarError(
            'provider_unavailable',
            'The calendar provider could not be reached; try again.',
          )
        : new SvcCalendarError(
            'provider_error',
            `The calendar provider refused the refresh (${error.code}).`,
          );
    }
    const now = this.#deps.clock.now();
    const refreshToken = refreshed.refreshToken ?? tokens.refreshToken;
    const expiresAt = expiryOf(now, refreshed.expiresIn);
    const scopes =
      refreshed.scope === null ? record.scopes : refreshed.scope.split(' ').filter((s) => s !== '');
    const stored = await this.#deps.repository.storeRefreshed(
      record.id,
      record.version,
      {
        tokensSealed: sealTokens(this.#deps.secrets, record.id, {
          accessToken: refreshed.accessToken,
          refreshToken,
        }),
        offlineAccess: true,
        accessTokenExpiresAt: expiresAt,
        scopes,
      },
      now,
    );
    if (!stored) {
      // Revoked, consented again or refreshed elsewhere meanwhile: what the row holds now wins.
      if (again) return this.#accessToken(record.id, false);
      throw new SvcConflictError('The calendar connection changed while it was refreshed; ask again.');
    }
    await this.#deps.audit.record({
      kind: 'calendar.connection.refreshed',
      actorType: 'system',
      userId: record.userId,
      data: {
        calendarConnectionId: record.id,
        connectionId: record.connectionId,
        providerType: record.providerType,
        refreshTokenRotated:
          refreshed.refreshToken !== null && refreshed.refreshToken !== tokens.refreshToken,
      },
    });
    return view(record, refreshed.accessToken, expiresAt, scopes);
  }

  /** The provider refused the refresh token, or there is none: the user must consent again. */
  async #refused(
    record: CalendarConnectionRecord,
    reason: 'refresh_refused' | 'no_refresh_token',
    again: boolean,
  ): Promise<SvcCalendarAccessToken> {
    const now = this.#deps.clock.now();
    if (await this.#deps.repository.markReauthorizationRequired(record.id, record.version, now)) {
      await this.#deps.audit.record({
        kind: 'calendar.connection.reauthorization_required',
        actorType: 'system',
        userId: record.userId,
        data: {
          calendarConnectionId: record.id,
          connectionId: record.connectionId,
          providerType: record.providerType,
          reason,
        },
      });
      throw reauthorizationRequired();
    }
    // The row moved on (a concurrent refresh stored new tokens, the refused token being the one it
    // rotated; or a new consent): what it holds now wins.
    if (again) return this.#accessToken(record.id, false);
    throw reauthorizationRequired();
  }
}

function reauthorizationRequired(): SvcCalendarError {
  return new SvcCalendarError(
    'reauthorization_required',
    'The calendar provider no longer accepts this connection: the user must connect the calendar again.',
  );
}

function view(
  record: CalendarConnectionRecord,
  accessToken: string,
  expiresAt: number,
  scopes: readonly string[],
): SvcCalendarAccessToken {
  return {
    calendarConnectionId: record.id,
    providerType: record.providerType,
    accessToken,
    tokenType: 'Bearer',
    expiresAt: toIso(expiresAt),
    scopes: [...scopes],
  };
}
