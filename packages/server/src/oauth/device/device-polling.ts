import type { ClientRecord, UserRecord } from '../../directory/repository.js';
import { sha256Hex } from '../../kernel/crypto.js';
import { grantScopes } from '../scopes.js';
import { ACCESS_DENIED_MESSAGE } from '../../applications/errors.js';
import type { DeviceAuthorizationDeps } from './deps.js';
import type { DevicePollResult } from './device-outcomes.js';
import type { DeviceAuthorizationRecord } from './repository.js';

/** One poll of the token endpoint with a device code. */
export interface DevicePollInput {
  /** The client the token endpoint authenticated (confidential) or identified (public). */
  readonly client: ClientRecord;
  readonly deviceCode: string;
  /** The checked `resource` of the poll; null when none was sent. */
  readonly resource: string | null;
  /** Kept on the session the successful poll creates. */
  readonly userAgent?: string | null;
  readonly ipAddress?: string | null;
}

/** RFC 8628 §3.5: "the interval MUST be increased by 5 seconds for this and all subsequent requests". */
export const SLOW_DOWN_INCREMENT_SECONDS = 5;

const NOT_VALID = 'The device code is not valid.';

/**
 * grant_type=urn:ietf:params:oauth:grant-type:device_code (RFC 8628 §3.4-3.5; docs/reference/tokens-and-sessions.md "Device authorization grant"),
 * answered in this order, each a value:
 *
 * - the client inactive → invalid_client; it no longer allows the device grant → unauthorized_client
 * - unknown device code, or one issued to another client → invalid_grant (the same words for both)
 * - `resource` sent and different from the one bound at start → invalid_target
 * - tokens already issued for it → invalid_grant
 * - past its lifetime → expired_token; denied → access_denied
 * - approved: the user must still be active (and a member of the approved organization), else
 *   invalid_grant; then in one transaction the request is consumed by a conditional update and the
 *   session created, so of any number of concurrent polls exactly one gets the tokens and the others
 *   invalid_grant. The scope is intersected again with the client's current allow-list.
 * - pending: a poll sooner than `interval` seconds after the previous one → slow_down, and the interval
 *   grows by 5 seconds (the answer carries it); otherwise authorization_pending. The gate is a
 *   compare-and-set on the last poll time, so of concurrent polls one is pending and the rest slow down.
 *   The first poll is never too early: RFC 8628 measures the interval "between polling requests".
 */
export class DevicePolling {
  readonly #deps: DeviceAuthorizationDeps;

  constructor(deps: DeviceAuthorizationDeps) {
    this.#deps = deps;
  }

  async poll(input: DevicePollInput): Promise<DevicePollResult> {
    const { client } = input;
    if (!client.active) return { status: 'invalid_client', description: 'Client authentication failed.' };
    if (!client.allowDeviceAuthorization) {
      return {
        status: 'unauthorized_client',
        description: 'This client is not allowed to use the device authorization grant.',
      };
    }
    const hash = sha256Hex(input.deviceCode);
    const row = await this.#deps.store.findByDeviceCode(hash);
    if (row === undefined || row.clientId !== client.clientId) {
      return { status: 'invalid_grant', description: NOT_VALID, unknown: true };
    }
    if (input.resource !== null && input.resource !== row.resource) {
      return {
        status: 'invalid_target',
        description: 'The resource does not match the one of the device authorization request.',
      };
    }
    if (row.status === 'consumed') {
      return { status: 'invalid_grant', description: 'The device code was already used.' };
    }
    const now = this.#deps.clock.now();
    if (now >= row.expiresAt) return { status: 'expired_token', description: 'The device code has expired.' };
    if (row.status === 'denied')
      return { status: 'access_denied', description: 'The user denied the request.' };
    if (row.status === 'approved') return this.#issue(input, row, now);
    return this.#pending(row, now);
  }

  async #pending(row: DeviceAuthorizationRecord, now: number): Promise<DevicePollResult> {
    const { store } = this.#deps;
    const tooSoon = row.lastPolledAt !== null && now - row.lastPolledAt < row.intervalSeconds * 1000;
    if (!tooSoon && (await store.recordPoll(row.deviceCodeHash, row.lastPolledAt, now))) {
      return { status: 'authorization_pending', description: 'The user has not yet approved the request.' };
    }
    // Too soon, or a concurrent poll passed the gate first: this one came too fast.
    const interval = await store.slowDown(row.deviceCodeHash, now, SLOW_DOWN_INCREMENT_SECONDS);
    if (interval === undefined) {
      // Approved or denied in between: the next poll sees the decision.
      return { status: 'authorization_pending', description: 'The user has not yet approved the request.' };
    }
    return {
      status: 'slow_down',
      interval,
      description: `Polling too fast: wait at least ${interval} seconds between requests.`,
    };
  }

  async #issue(
    input: DevicePollInput,
    row: DeviceAuthorizationRecord,
    now: number,
  ): Promise<DevicePollResult> {
    const { store, sessions, settings, audit } = this.#deps;
    const { userId, amr, authTime } = row;
    if (userId === null || amr === null || authTime === null) {
      return { status: 'invalid_grant', description: NOT_VALID };
    }
    const user = await this.#activeUser(userId, row.organizationId);
    if (typeof user === 'string') return { status: 'invalid_grant', description: user };
    const who = { userId, organizationId: row.organizationId, isOperator: user.isOperator };
    const context = { flow: 'device_code', ipAddress: input.ipAddress };
    // RFC 8628 §3.5 access_denied: the operator's access rules refuse this user now (the detail is audited).
    if ((await this.#deps.access.denial(input.client, who, context)) !== null) {
      return { status: 'access_denied', description: ACCESS_DENIED_MESSAGE };
    }
    const resolved = await settings.getResolved();
    const scopes = grantScopes(row.scopes, input.client.allowedScopes);

    const created = sessions.newSession(
      {
        userId,
        client: input.client,
        organizationId: row.organizationId,
        scopes,
        resource: row.resource,
        amr,
        authTime,
        includeIdToken: false,
        userAgent: input.userAgent ?? null,
        ipAddress: input.ipAddress ?? null,
      },
      now,
      resolved,
    );
    const issued = await store.transaction(async (tx) => {
      if (!(await tx.devices.consumeApproved(row.deviceCodeHash, now))) return false;
      await tx.tokens.createSession(created.session, created.firstToken);
      await tx.devices.setSession(row.deviceCodeHash, created.session.id);
      return true;
    });
    // Lost the race to a concurrent poll of the same code.
    if (!issued) {
      return { status: 'invalid_grant', description: 'The device code was already used.' };
    }

    const tokens = await sessions.mint(created.session, input.client, user, {
      refreshToken: created.refreshToken,
      includeIdToken: sessions.wantsIdToken(scopes),
      nonce: null,
    });
    await audit.record({
      kind: 'device.authorization.tokens_issued',
      actorType: 'client',
      actorId: input.client.clientId,
      clientId: input.client.clientId,
      userId,
      ...(row.organizationId === null ? {} : { organizationId: row.organizationId }),
      ...(input.ipAddress == null ? {} : { ipAddress: input.ipAddress }),
      data: { sessionId: created.session.id, scopes },
    });
    return { status: 'complete', tokens };
  }

  /** The approving user if still active (and a member of the approved organization); else why not. */
  async #activeUser(userId: string, organizationId: string | null): Promise<UserRecord | string> {
    const user = await this.#deps.users.findById(userId);
    if (user === undefined || !user.active) return 'The user is not active.';
    if (
      organizationId !== null &&
      !(await this.#deps.memberships.hasActiveMembership(userId, organizationId))
    ) {
      return 'The user is no longer an active member of the organization.';
    }
    return user;
  }
}
