import { admissionError } from '../clients/metadata-documents/client-metadata-documents.js';
import type { DeviceDecisionStatus } from '@svc/contract';
import type { ClientRecord } from '../../directory/repository.js';
import { sha256Hex } from '../../kernel/crypto.js';
import { SvcConfigError, SvcPublicAuthError } from '../../kernel/errors.js';
import { oauthError } from '../errors.js';
import { checkResource } from '../resource-indicators.js';
import { grantScopes, parseScope } from '../scopes.js';
import {
  DEFAULT_DEVICE_AUTHORIZATION_OPTIONS,
  type DeviceAuthorizationDeps,
  type DeviceAuthorizationOptions,
} from './deps.js';
import type {
  DeviceAuthorizationStarted,
  DeviceAuthorizationView,
  DevicePollResult,
} from './device-outcomes.js';
import { DevicePolling, type DevicePollInput } from './device-polling.js';
import type { DeviceApproval, DeviceAuthorizationRecord, DeviceDecision } from './repository.js';
import { formatUserCode, generateUserCode, normalizeUserCode } from './user-code.js';

/** What the device sends to POST /device_authorization, after the client was identified. */
export interface DeviceStartInput {
  readonly client: ClientRecord;
  /** The raw `scope` parameter; absent grants nothing. */
  readonly scope: string | null | undefined;
  /** Every `resource` value sent (RFC 8707); at most one is accepted. */
  readonly resources: readonly string[];
  /** The caller's address, for the rate limit and the audit log. */
  readonly ipAddress: string | null;
}

/** A signed-in user approves the request behind a user code. */
export interface DeviceApproveInput extends DeviceApproval {
  /** As typed: case, spaces and dashes do not matter. */
  readonly userCode: string;
}

/** A user denies the request behind a user code; `userId` when someone is signed in. */
export interface DeviceDenyInput {
  readonly userCode: string;
  readonly userId: string | null;
}

/** How often a clash of user codes (the unique hash) is answered by drawing another. */
const USER_CODE_ATTEMPTS = 5;

/**
 * The device authorization grant (RFC 8628; docs/reference/tokens-and-sessions.md "Device authorization grant" lifecycle):
 *
 *   start → pending
 *   pending --approve (a signed-in user)--> approved --poll--> consumed (tokens, exactly once)
 *   pending --deny--> denied
 *   any state --expires_in passed--> expired (derived from expires_at, never stored)
 *
 * Every transition is a conditional update, so concurrent approvals, denials and polls agree. The
 * device code (256 random bits) and the user code are stored only as SHA-256 hashes. Polling is
 * ./device-polling.ts; the HTTP adapters are ./routes.ts and ./device-code-grant.ts.
 */
export class DeviceAuthorizations {
  readonly #deps: DeviceAuthorizationDeps;
  readonly #options: DeviceAuthorizationOptions;
  readonly #polling: DevicePolling;

  constructor(deps: DeviceAuthorizationDeps) {
    this.#deps = deps;
    this.#options = { ...DEFAULT_DEVICE_AUTHORIZATION_OPTIONS, ...deps.options };
    for (const [name, seconds] of Object.entries(this.#options)) {
      if (!Number.isInteger(seconds) || seconds < 1) {
        throw new SvcConfigError(
          `The device authorization ${name} must be a positive whole number of seconds.`,
        );
      }
    }
    this.#polling = new DevicePolling(deps);
  }

  /**
   * POST /device_authorization for a client the endpoint identified (RFC 8628 §3.1-3.2):
   * - an inactive client → invalid_client; one without `allowDeviceAuthorization` → unauthorized_client
   * - `resource`: one absolute URI the client may have (else invalid_target), bound to the request
   * - `scope`: intersected with the client's allow-list, unknown scopes dropped (as at /authorize)
   * - more starts than `rateLimits.deviceStart` allows per client and IP → slow_down
   */
  async start(input: DeviceStartInput): Promise<DeviceAuthorizationStarted> {
    const { client } = input;
    if (!client.active) throw oauthError.invalidClient('Client authentication failed.');
    if (!client.allowDeviceAuthorization) {
      throw oauthError.unauthorizedClient(
        'This client is not allowed to use the device authorization grant.',
      );
    }
    const resource = checkResource(input.resources, client);
    if (!resource.ok) throw oauthError.invalidTarget(resource.description);
    const scopes = grantScopes(parseScope(input.scope), client.allowedScopes);

    const deps = this.#deps;
    const ip = input.ipAddress ?? undefined;
    const limit = await deps.rateLimiter.consume(deps.startLimit, {
      identifier: ip === undefined ? client.clientId : `${client.clientId}\n${ip}`,
      ip,
    });
    if (!limit.allowed) {
      throw oauthError.slowDown('Too many device authorization requests; try again later.');
    }

    const now = deps.clock.now();
    const expiresAt = now + this.#options.lifetimeSeconds * 1000;
    const deviceCode = deps.ids.secret();
    for (let attempt = 0; attempt < USER_CODE_ATTEMPTS; attempt += 1) {
      const userCode = generateUserCode(() => Buffer.from(deps.ids.secret(), 'base64url'));
      const inserted = await deps.store.insert(
        pendingRecord({
          deviceCodeHash: sha256Hex(deviceCode),
          userCodeHash: sha256Hex(userCode),
          clientId: client.clientId,
          scopes,
          resource: resource.resource,
          intervalSeconds: this.#options.intervalSeconds,
          createdAt: now,
          expiresAt,
        }),
      );
      if (!inserted) continue;
      await deps.audit.record({
        kind: 'device.authorization.started',
        actorType: 'client',
        actorId: client.clientId,
        clientId: client.clientId,
        ...(ip === undefined ? {} : { ipAddress: ip }),
        data: { scopes, resource: resource.resource, expiresAt },
      });
      const display = formatUserCode(userCode);
      const verificationUri = `${deps.issuer}/device`;
      return {
        deviceCode,
        userCode: display,
        verificationUri,
        verificationUriComplete: `${verificationUri}?user_code=${display}`,
        expiresIn: this.#options.lifetimeSeconds,
        interval: this.#options.intervalSeconds,
        expiresAt,
      };
    }
    // 20^8 codes: five clashes in a row mean the table is full of live codes, not bad luck.
    throw new Error('No free device user code could be drawn.');
  }

  /**
   * The in-process start (StartDeviceAuthorizationAsync): the host names the client, which must exist,
   * or whose metadata document is fetched as at /device_authorization.
   */
  async startForClientId(
    input: { clientId: string; scope: string | null; resource: string | null },
    ipAddress: string | null,
  ): Promise<DeviceAuthorizationStarted> {
    const admission = await this.#deps.clientDocuments?.admit(input.clientId, { ipAddress });
    if (admission?.kind === 'refused') throw admissionError(admission);
    const client = await this.#deps.findClient(input.clientId);
    if (client === undefined) throw oauthError.invalidClient('Client authentication failed.');
    return this.start({
      client,
      scope: input.scope,
      resources: input.resource === null ? [] : [input.resource],
      ipAddress,
    });
  }

  /**
   * What the verification page shows for a typed user code (ResolveDeviceAuthorizationAsync); null for a
   * code that is malformed or names no request (or one whose client is gone). Reading never changes state.
   */
  async resolve(userCode: string): Promise<DeviceAuthorizationView | null> {
    const normalized = normalizeUserCode(userCode);
    if (normalized === null) return null;
    const row = await this.#deps.store.findByUserCode(sha256Hex(normalized));
    if (row === undefined) return null;
    const client = await this.#deps.findClient(row.clientId);
    if (client === undefined) return null;
    return {
      clientId: client.clientId,
      clientName: client.name,
      scopes: row.scopes,
      resource: row.resource,
      userCode: formatUserCode(normalized),
      expiresAt: row.expiresAt,
      status: viewStatus(row, this.#deps.clock.now()),
    };
  }

  /**
   * A signed-in user approves (ApproveDeviceAuthorizationAsync). The caller vouches for the sign-in
   * (user, amr, authTime); the user must still be active and, for an organization, an active member
   * (else SvcPublicAuthError access_denied, 403, as the organization policy answers). The approval and
   * the identity it carries are recorded only while the request is pending and unexpired.
   */
  async approve(input: DeviceApproveInput): Promise<DeviceDecisionStatus> {
    const deps = this.#deps;
    const user = await deps.users.findById(input.userId);
    if (user === undefined || !user.active) {
      throw new SvcPublicAuthError('access_denied', 'The user is not active.', 403);
    }
    if (
      input.organizationId !== null &&
      !(await deps.memberships.hasActiveMembership(input.userId, input.organizationId))
    ) {
      throw new SvcPublicAuthError(
        'access_denied',
        'The user is not an active member of the organization.',
        403,
      );
    }
    const approval: DeviceApproval = {
      userId: input.userId,
      organizationId: input.organizationId,
      amr: [...input.amr],
      authTime: input.authTime,
    };
    return this.#decide(input.userCode, { status: 'approved', approval });
  }

  /** A user denies (the hosted and headless deny): polling then answers access_denied. */
  deny(input: DeviceDenyInput): Promise<DeviceDecisionStatus> {
    return this.#decide(input.userCode, { status: 'denied', userId: input.userId });
  }

  /** One poll of grant_type=device_code (./device-polling.ts). */
  poll(input: DevicePollInput): Promise<DevicePollResult> {
    return this.#polling.poll(input);
  }

  /**
   * The in-process poll (PollDeviceAuthorizationAsync): the host names the client and is trusted to have
   * identified it (as for CreateSessionTokensForUserAsync); an unknown client is invalid_client.
   */
  async pollForClientId(
    input: Omit<DevicePollInput, 'client'> & { readonly clientId: string },
  ): Promise<DevicePollResult> {
    const client = await this.#deps.findClient(input.clientId);
    if (client === undefined) {
      return { status: 'invalid_client', description: 'Client authentication failed.' };
    }
    return this.#polling.poll({ ...input, client });
  }

  /** An approval by a user the client's application access refuses: access_denied (403), audited. */
  async #requireAccess(clientId: string, approval: DeviceApproval): Promise<void> {
    const client = await this.#deps.findClient(clientId);
    if (client === undefined) return;
    const who = { userId: approval.userId, organizationId: approval.organizationId };
    await this.#deps.access.requireUser(client, who, { flow: 'device_approval' });
  }

  async #decide(userCode: string, decision: DeviceDecision): Promise<DeviceDecisionStatus> {
    const normalized = normalizeUserCode(userCode);
    if (normalized === null) return 'not_found';
    const { store, clock, audit } = this.#deps;
    const hash = sha256Hex(normalized);
    const row = await store.findByUserCode(hash);
    if (row === undefined) return 'not_found';
    if (decision.status === 'approved') await this.#requireAccess(row.clientId, decision.approval);
    if (await store.decide(hash, decision, clock.now())) {
      const userId = decision.status === 'approved' ? decision.approval.userId : decision.userId;
      const organizationId = decision.status === 'approved' ? decision.approval.organizationId : null;
      await audit.record({
        kind: `device.authorization.${decision.status}`,
        // A denial may come from someone who has not signed in: then no actor is known.
        ...(userId === null ? {} : { actorType: 'user', actorId: userId, userId }),
        clientId: row.clientId,
        ...(organizationId === null ? {} : { organizationId }),
        data: { scopes: row.scopes, resource: row.resource },
      });
      return decision.status;
    }
    // Lost to another decision, or past its lifetime: read again to tell which.
    const current = (await store.findByUserCode(hash)) ?? row;
    return current.status === 'pending' ? 'expired' : 'already_decided';
  }
}

/** The view status of a row at `now`: expiry first, then the stored status (consumed reads as approved). */
function viewStatus(row: DeviceAuthorizationRecord, now: number): DeviceAuthorizationView['status'] {
  if (now >= row.expiresAt) return 'expired';
  if (row.status === 'consumed') return 'approved';
  return row.status;
}

function pendingRecord(
  fields: Pick<
    DeviceAuthorizationRecord,
    | 'deviceCodeHash'
    | 'userCodeHash'
    | 'clientId'
    | 'scopes'
    | 'resource'
    | 'intervalSeconds'
    | 'createdAt'
    | 'expiresAt'
  >,
): DeviceAuthorizationRecord {
  return {
    ...fields,
    status: 'pending',
    lastPolledAt: null,
    userId: null,
    organizationId: null,
    amr: null,
    authTime: null,
    decidedAt: null,
    consumedAt: null,
    sessionId: null,
  };
}
