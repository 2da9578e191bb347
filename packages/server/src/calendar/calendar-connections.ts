import type { Page, SvcCalendarConnection, SvcCalendarConnectionDeleteResult } from '@svc/contract';
import type { AuditActorType, AuditLog } from '../audit/audit-log.js';
import type { OidcConnections } from '../federation/oidc/enabled-connections.js';
import type { OidcRelyingParty } from '../federation/oidc/relying-party.js';
import { OidcRelyingPartyError } from '../federation/oidc/rp-errors.js';
import type { Clock } from '../kernel/clock.js';
import type { SecretBox } from '../kernel/crypto.js';
import { SvcNotFoundError } from '../kernel/errors.js';
import type { CalendarAccounts } from './calendar-consent.js';
import type { CalendarConnectionRecord, CalendarConnectionRepository } from './repository.js';
import { openTokens } from './sealed-tokens.js';
import { toSvcCalendarConnection } from './views.js';

/** Who revokes or deletes: an operator, or the connection's own user. */
export interface CalendarActor {
  readonly actorType: AuditActorType;
  readonly actorId?: string | undefined;
  readonly ipAddress?: string | undefined;
}

export interface CalendarConnectionsDeps {
  readonly repository: Pick<CalendarConnectionRepository, 'findById' | 'list' | 'revoke' | 'delete'>;
  readonly connections: Pick<OidcConnections, 'findEnabled'>;
  readonly relyingParty: Pick<OidcRelyingParty, 'revoke'>;
  readonly accounts: Pick<CalendarAccounts, 'findUser'>;
  readonly secrets: Pick<SecretBox, 'encrypt' | 'decrypt'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
}

const notFound = () => new SvcNotFoundError('There is no calendar connection with this id.');

/**
 * Calendar connections as their users and operators manage them: lists and reads (never a token), and
 * revocation, which drops the tokens here and revokes the grant at the provider when it can (Google; a
 * provider that fails to answer does not keep the connection alive here).
 */
export class CalendarConnections {
  readonly #deps: CalendarConnectionsDeps;

  constructor(deps: CalendarConnectionsDeps) {
    this.#deps = deps;
  }

  /** Newest first; one user's when `userId` is given (a user that does not exist is a 404). */
  async list(query: {
    readonly limit: number;
    readonly cursor?: string | undefined;
    readonly userId?: string | undefined;
  }): Promise<Page<SvcCalendarConnection>> {
    if (query.userId !== undefined && (await this.#deps.accounts.findUser(query.userId)) === undefined) {
      throw new SvcNotFoundError('There is no user with this id.');
    }
    const page = await this.#deps.repository.list(query);
    return { data: page.data.map(toSvcCalendarConnection), nextCursor: page.nextCursor };
  }

  /** The connection; with `ownerId`, only if it is that user's (else not found, as for any other id). */
  async get(id: string, ownerId?: string): Promise<SvcCalendarConnection> {
    return toSvcCalendarConnection(await this.#find(id, ownerId));
  }

  /** Revokes the connection (an already revoked one is answered as it is). */
  async revoke(id: string, actor: CalendarActor, ownerId?: string): Promise<SvcCalendarConnection> {
    const record = await this.#find(id, ownerId);
    if (record.status === 'revoked') return toSvcCalendarConnection(record);
    const revoked = await this.#deps.repository.revoke(id, this.#deps.clock.now());
    if (revoked === undefined) throw notFound();
    const providerRevoked = await this.#revokeAtProvider(record);
    await this.#audit('calendar.connection.revoked', record, actor, { providerRevoked });
    return toSvcCalendarConnection(revoked);
  }

  /** Deletes the connection, revoking its grant at the provider first when it holds one. */
  async delete(id: string, actor: CalendarActor): Promise<SvcCalendarConnectionDeleteResult> {
    const record = await this.#find(id);
    const deleted = await this.#deps.repository.delete(id);
    if (deleted === undefined) throw notFound();
    const providerRevoked = await this.#revokeAtProvider(deleted);
    await this.#audit('calendar.connection.deleted', record, actor, { providerRevoked });
    return { deleted: true };
  }

  async #find(id: string, ownerId?: string): Promise<CalendarConnectionRecord> {
    const record = await this.#deps.repository.findById(id);
    if (record === undefined || (ownerId !== undefined && record.userId !== ownerId)) throw notFound();
    return record;
  }

  /**
   * Revokes the refresh token at the provider (RFC 7009), ending the user's grant there; false when
   * there is none to revoke, the provider has no revocation endpoint or did not accept the request.
   */
  async #revokeAtProvider(record: CalendarConnectionRecord): Promise<boolean> {
    if (record.tokensSealed === null) return false;
    const { refreshToken } = openTokens(this.#deps.secrets, record.id, record.tokensSealed);
    const connection = await this.#deps.connections.findEnabled(record.connectionId);
    if (refreshToken === null || connection === undefined) return false;
    try {
      return await this.#deps.relyingParty.revoke(connection, refreshToken);
    } catch (error) {
      if (error instanceof OidcRelyingPartyError) return false;
      throw error;
    }
  }

  async #audit(
    kind: string,
    record: CalendarConnectionRecord,
    actor: CalendarActor,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.#deps.audit.record({
      kind,
      actorType: actor.actorType,
      ...(actor.actorId === undefined ? {} : { actorId: actor.actorId }),
      ...(actor.ipAddress === undefined ? {} : { ipAddress: actor.ipAddress }),
      userId: record.userId,
      data: {
        calendarConnectionId: record.id,
        connectionId: record.connectionId,
        providerType: record.providerType,
        ...data,
      },
    });
  }
}
