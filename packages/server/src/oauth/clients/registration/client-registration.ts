import { OPEN_ACCESS, type ClientRecord, type ClientRepository } from '../../../directory/repository.js';
import type { AuditLog } from '../../../audit/audit-log.js';
import type { Clock } from '../../../kernel/clock.js';
import { retryAfterPhrase, SvcTooManyAttemptsError } from '../../../kernel/errors.js';
import type { Ids } from '../../../kernel/ids.js';
import type { RateLimiter } from '../../../ratelimit/rate-limiter.js';
import type { RateLimitPolicy } from '../../../ratelimit/rules.js';
import { formatScope } from '../../scopes.js';
import {
  DEVICE_CODE_GRANT,
  parseRegistrationRequest,
  type RegistrationPolicy,
  type RegistrationRequest,
} from './registration-request.js';

export interface ClientRegistrationDeps {
  readonly clients: Pick<ClientRepository, 'insertIfClientIdFree'>;
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
  /** `config.rateLimits.clientRegistration`: registrations per client address. */
  readonly limit: RateLimitPolicy;
  readonly policy: RegistrationPolicy;
  /** The audience of registered clients' access tokens. */
  readonly audience: string;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** The 201 body of a registration (RFC 7591 §3.2.1): the client's id and the metadata as registered. */
export type RegistrationResponse = Readonly<Record<string, unknown>>;

/**
 * Dynamic client registration (docs/reference/oauth-clients.md "Dynamic client registration", RFC 7591): an app registers
 * itself as a public, third-party client, with no operator involved. What it may be is bounded by the
 * request rules (registration-request.ts) and by the operator's configuration: the scope ceiling and
 * the audience of its tokens. Registrations are limited per client address, and each is audited; an
 * operator reads, changes and deactivates a registered client like any other.
 */
export class ClientRegistration {
  readonly #deps: ClientRegistrationDeps;

  constructor(deps: ClientRegistrationDeps) {
    this.#deps = deps;
  }

  async register(
    body: unknown,
    context: { readonly ipAddress: string | null },
  ): Promise<RegistrationResponse> {
    const deps = this.#deps;
    const request = parseRegistrationRequest(body, deps.policy);
    // Counted only once the request is valid: a refused one stores nothing.
    const ip = context.ipAddress ?? undefined;
    const decision = await deps.rateLimiter.consume(deps.limit, { ip });
    if (!decision.allowed) {
      throw new SvcTooManyAttemptsError(
        `Too many clients were registered from this address; try again ${retryAfterPhrase(decision.retryAfterMs)}.`,
        decision.retryAfterMs,
        { error: 'rate_limited' },
      );
    }
    const client = this.#clientOf(request);
    // The client id is random (122 bits): a collision is not a case to handle but a broken generator.
    if (!(await deps.clients.insertIfClientIdFree(client))) {
      throw new Error(`The generated client_id ${client.clientId} is already taken.`);
    }
    await deps.audit.record({
      kind: 'oauth.client.registered',
      actorType: 'client',
      actorId: client.clientId,
      clientId: client.clientId,
      ...(ip === undefined ? {} : { ipAddress: ip }),
      data: {
        name: client.name,
        redirectUris: client.redirectUris,
        grantTypes: request.grantTypes,
        scopes: client.allowedScopes,
        softwareId: request.softwareId,
        softwareVersion: request.softwareVersion,
      },
    });
    return responseOf(client, request);
  }

  #clientOf(request: RegistrationRequest): ClientRecord {
    const { ids, clock, audience } = this.#deps;
    const now = clock.now();
    return {
      id: ids.id('cli'),
      clientId: ids.id('dcr'),
      // Without a name, the host it returns to is what a consent page can honestly show.
      name: request.clientName ?? new URL(request.redirectUris[0] ?? '').host,
      audience,
      redirectUris: request.redirectUris,
      postLogoutRedirectUris: [],
      isFirstParty: false,
      allowedScopes: request.scopes,
      allowedResources: [],
      tokenEndpointAuthMethod: 'none',
      clientSecretHash: null,
      allowDeviceAuthorization: request.grantTypes.includes(DEVICE_CODE_GRANT),
      allowClientCredentials: false,
      active: true,
      access: OPEN_ACCESS,
      createdAt: now,
      updatedAt: now,
      registration: {
        method: 'dynamic',
        document: null,
        firstUsedAt: null,
        clientUri: request.clientUri,
        logoUri: request.logoUri,
        softwareId: request.softwareId,
        softwareVersion: request.softwareVersion,
      },
    };
  }
}

/** The registered metadata in RFC 7591's names; optional fields only when given, `scope` always. */
function responseOf(client: ClientRecord, request: RegistrationRequest): RegistrationResponse {
  const optional = {
    client_uri: request.clientUri,
    logo_uri: request.logoUri,
    software_id: request.softwareId,
    software_version: request.softwareVersion,
  };
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.createdAt / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: request.grantTypes,
    response_types: request.responseTypes,
    token_endpoint_auth_method: 'none',
    scope: formatScope(client.allowedScopes),
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== null)),
  };
}
