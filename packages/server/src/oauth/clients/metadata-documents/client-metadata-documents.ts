import type { DOCUMENT_DECIDED_CLIENT_FIELDS } from '@svc/contract';
import { OPEN_ACCESS, type ClientRecord, type ClientRepository } from '../../../directory/repository.js';
import type { AuditLog } from '../../../audit/audit-log.js';
import type { ClientIdMetadataDocumentConfig } from '../self-described-clients.js';
import type { PublicFetcher, PublicFetchResult } from '../../../outbound/public-fetch.js';
import type { Clock } from '../../../kernel/clock.js';
import { retryAfterPhrase, SvcTooManyAttemptsError, type SvcError } from '../../../kernel/errors.js';
import type { Ids } from '../../../kernel/ids.js';
import type { RateLimiter } from '../../../ratelimit/rate-limiter.js';
import type { RateLimitPolicy } from '../../../ratelimit/rules.js';
import { oauthError } from '../../errors.js';
import { DEVICE_CODE_GRANT, type RegistrationRequest } from '../registration/registration-request.js';
import { isLookupableClientId } from '../client-authentication.js';
import { hostAllowed, looksLikeDocumentUrl, readClientIdUrl } from './client-id-url.js';
import { MAX_DOCUMENT_BYTES, readMetadataDocument } from './metadata-document.js';

export interface ClientMetadataDocumentsDeps {
  readonly clients: Pick<ClientRepository, 'findByClientId' | 'insertIfClientIdFree' | 'update'>;
  readonly fetcher: Pick<PublicFetcher, 'fetch'>;
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
  /** `config.rateLimits.clientMetadataFetch`: fetches per client address. */
  readonly limit: RateLimitPolicy;
  readonly config: ClientIdMetadataDocumentConfig;
  /** `SVC_CIMD_ALLOW_LOOPBACK`: documents from a loopback host, over http too. */
  readonly loopback: boolean;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/**
 * Whether a request's client_id may be looked up: `stored` (not a document URL, or its stored copy is
 * usable: look it up as any client), or `refused` with what the client's developer or the user is told.
 */
export type DocumentAdmission =
  | { readonly kind: 'stored' }
  | { readonly kind: 'refused'; readonly description: string; readonly retryAfterMs?: number };

const STORED: DocumentAdmission = Object.freeze({ kind: 'stored' });

/** A refusal as an endpoint answers it: 429 `rate_limited` with Retry-After, else invalid_client. */
export function admissionError(admission: Extract<DocumentAdmission, { kind: 'refused' }>): SvcError {
  return admission.retryAfterMs === undefined
    ? oauthError.invalidClient(admission.description)
    : new SvcTooManyAttemptsError(admission.description, admission.retryAfterMs, { error: 'rate_limited' });
}

/**
 * Client ID Metadata Documents (docs/reference/oauth-clients.md "Client ID metadata documents"; draft-ietf-oauth-client-id-metadata-document): a
 * client_id that is an https URL names a JSON document of the client's metadata. Where a client first
 * appears (`/authorize`, the headless start, `/device_authorization`), its document is fetched (safely:
 * outbound/public-fetch.ts) when Svc has no fresh copy, checked as a registration is, and stored as a
 * public, third-party client with `registration.method` `metadata_document`; every later step reads
 * the stored copy. A failed fetch refuses the request and keeps nothing (draft: errors are not cached).
 * A client an operator deactivated stays deactivated, and is never fetched again.
 */
export class ClientMetadataDocuments {
  readonly #deps: ClientMetadataDocumentsDeps;

  constructor(deps: ClientMetadataDocumentsDeps) {
    this.#deps = deps;
  }

  async admit(clientId: string, context: { readonly ipAddress: string | null }): Promise<DocumentAdmission> {
    const { config, clients, clock } = this.#deps;
    if (!config.enabled || !looksLikeDocumentUrl(clientId)) return STORED;
    // One that cannot be looked up is no URL either: readClientIdUrl says why below.
    const stored = isLookupableClientId(clientId) ? await clients.findByClientId(clientId) : undefined;
    // An operator's client (pre-registered under its URL, whatever the URL) or one they deactivated is
    // never fetched: the usual look-up decides.
    if (stored !== undefined && (stored.registration?.method !== 'metadata_document' || !stored.active)) {
      return STORED;
    }
    const read = readClientIdUrl(clientId, { loopback: this.#deps.loopback });
    if (!read.ok) return refused(`The client_id is not a usable metadata document URL: ${read.problem}.`);
    const { url } = read;
    // Checked on every entry, so that narrowing the allowed hosts takes effect at once.
    if (!hostAllowed(url.hostname, config.allowedHosts)) {
      return refused(`This server does not accept client metadata documents from ${url.hostname}.`);
    }
    const fresh = stored?.registration?.document?.freshUntil ?? 0;
    if (clock.now() < fresh) return STORED;
    const decision = await this.#deps.rateLimiter.consume(this.#deps.limit, {
      ip: context.ipAddress ?? undefined,
    });
    if (!decision.allowed) {
      return refused(
        `Too many client metadata documents were fetched for this address; try again ${retryAfterPhrase(decision.retryAfterMs)}.`,
        decision.retryAfterMs,
      );
    }
    const fetched = await this.#deps.fetcher.fetch({
      url,
      accept: 'application/json',
      maxBytes: MAX_DOCUMENT_BYTES,
      loopback: this.#deps.loopback,
    });
    if (!fetched.ok) {
      return refused(`The client's metadata document could not be fetched: ${failure(fetched)}.`);
    }
    const document = readMetadataDocument(fetched, clientId, config);
    if (!document.ok) {
      return refused(`The client's metadata document is not usable: ${document.problem}`);
    }
    await this.#store(stored, clientId, url, document.request, document.lifetimeSeconds, context.ipAddress);
    return STORED;
  }

  async #store(
    stored: ClientRecord | undefined,
    clientId: string,
    url: URL,
    request: RegistrationRequest,
    lifetimeSeconds: number,
    ipAddress: string | null,
  ): Promise<void> {
    const { clients, clock, ids, audit, config } = this.#deps;
    const now = clock.now();
    const described: SelfDescription = {
      // Without a name, the host of its document is what a consent page can honestly show.
      name: request.clientName ?? url.host,
      redirectUris: request.redirectUris,
      allowedScopes: request.scopes,
      allowDeviceAuthorization: request.grantTypes.includes(DEVICE_CODE_GRANT),
      registration: {
        method: 'metadata_document',
        clientUri: request.clientUri,
        logoUri: request.logoUri,
        softwareId: request.softwareId,
        softwareVersion: request.softwareVersion,
        document: { fetchedAt: now, freshUntil: now + lifetimeSeconds * 1000 },
        // Kept in its own column, which a new fetch never rewrites.
        firstUsedAt: stored?.registration?.firstUsedAt ?? null,
      },
    };
    const event = {
      actorType: 'client' as const,
      actorId: clientId,
      clientId,
      ...(ipAddress === null ? {} : { ipAddress }),
    };
    const inserted =
      stored === undefined &&
      (await clients.insertIfClientIdFree({
        ...described,
        // Set once, as for a registration: an operator may change it afterwards, and a fetch keeps it.
        audience: config.audience,
        id: ids.id('cli'),
        clientId,
        postLogoutRedirectUris: [],
        isFirstParty: false,
        allowedResources: [],
        tokenEndpointAuthMethod: 'none',
        clientSecretHash: null,
        allowClientCredentials: false,
        active: true,
        access: OPEN_ACCESS,
        createdAt: now,
        updatedAt: now,
      }));
    if (inserted) {
      await audit.record({
        kind: 'oauth.client.registered',
        ...event,
        data: { method: 'metadata_document', ...summary(described), softwareId: request.softwareId },
      });
      return;
    }
    // Fetched again, or first stored meanwhile by another request: the document as it is now.
    const before = stored ?? (await clients.findByClientId(clientId));
    await clients.update(clientId, described, now);
    if (before === undefined) return;
    const previous = summary(before);
    const changed = Object.entries(summary(described))
      .filter(([field, value]) => JSON.stringify(value) !== JSON.stringify(previous[field]))
      .map(([field]) => field);
    if (changed.length > 0) {
      await audit.record({
        kind: 'oauth.client.document_changed',
        ...event,
        data: { changed, ...summary(described) },
      });
    }
  }
}

/** What a document decides of its client, at every fetch. */
type SelfDescription = Pick<ClientRecord, (typeof DOCUMENT_DECIDED_CLIENT_FIELDS)[number] | 'registration'>;

/** What the audit trail keeps of a client's self-description, and compares between two fetches. */
function summary(client: SelfDescription): Record<string, unknown> {
  return {
    name: client.name,
    redirectUris: client.redirectUris,
    scopes: client.allowedScopes,
    deviceGrant: client.allowDeviceAuthorization,
  };
}

function refused(description: string, retryAfterMs?: number): DocumentAdmission {
  return retryAfterMs === undefined
    ? { kind: 'refused', description }
    : { kind: 'refused', description, retryAfterMs };
}

/** Why the fetch failed, for the client's developer (never an address the host resolved to). */
function failure(fetched: Extract<PublicFetchResult, { ok: false }>): string {
  switch (fetched.reason) {
    case 'not_public':
      return `its host ${fetched.host} is not a public address`;
    case 'no_address':
      return `its host ${fetched.host} has no address in DNS`;
    case 'unreachable':
      return `its host ${fetched.host} could not be reached`;
    case 'certificate':
      return `the certificate of ${fetched.host} was not accepted`;
    case 'timeout':
      return `it took longer than ${fetched.seconds} second${fetched.seconds === 1 ? '' : 's'}`;
    case 'redirect':
      return `it answered with a redirect (${fetched.status}), which is not followed`;
    case 'status':
      return `it answered ${fetched.status} instead of 200`;
    case 'too_large':
      return `it is larger than ${fetched.maxBytes} bytes`;
  }
}
