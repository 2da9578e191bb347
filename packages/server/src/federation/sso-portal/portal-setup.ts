import type {
  CreateSsoConnectionInput,
  ImportSsoPortalMetadataInput,
  SvcDomainClaim,
  SvcSsoConnection,
  SvcSsoPortalTestResult,
} from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import {
  retryAfterPhrase,
  SvcNotFoundError,
  SvcTooManyAttemptsError,
  SvcValidationError,
} from '../../kernel/errors.js';
import type { RateLimiter } from '../../ratelimit/rate-limiter.js';
import type { RateLimitPolicy } from '../../ratelimit/rules.js';
import type { DomainClaims } from '../../organizations/domains/domain-claims.js';
import type { SsoConnectionAdmin } from '../saml/connection-admin.js';
import { metadataUrl, type MetadataFetcher } from '../saml/metadata-fetch.js';
import type { SamlServiceProvider } from '../saml/service-provider.js';
import { toSvcSsoConnection } from '../saml/views.js';
import { portalActorId } from './portal-sessions.js';
import { portalTestContinuation } from './portal-test-continuation.js';
import type { SsoPortalSessionRecord } from './repository.js';
import { toSvcSsoPortalTestResult } from './views.js';

/** The portal's lists hold a customer's handful of connections and domains; no paging on the page. */
const LIST_LIMIT = 100;

export interface PortalSetupDeps {
  readonly connections: Pick<
    SsoConnectionAdmin,
    'createDraft' | 'get' | 'listForOrganization' | 'importMetadata' | 'setEnabled'
  >;
  readonly domains: Pick<DomainClaims, 'start' | 'confirm' | 'list'>;
  readonly serviceProvider: Pick<SamlServiceProvider, 'startAuthentication'>;
  /** The organization's display name, or undefined once it is gone. */
  readonly organizationName: (organizationId: string) => Promise<string | undefined>;
  /** Fetches metadata from the URL an admin typed, within the fetch limit of their portal session. */
  readonly metadataFetch: {
    readonly fetcher: Pick<MetadataFetcher, 'fetch'>;
    readonly rateLimiter: Pick<RateLimiter, 'consume'>;
    readonly policy: RateLimitPolicy;
  };
}

/** Who does what in the portal, as the audit trail records it. */
export interface PortalActor {
  readonly session: SsoPortalSessionRecord;
  readonly ipAddress: string;
}

/** What the portal shows at once: the organization, its connections and domain claims, the last test. */
export interface PortalOverview {
  readonly organization: { readonly id: string; readonly name: string };
  readonly connections: readonly SvcSsoConnection[];
  readonly domains: readonly SvcDomainClaim[];
  readonly testResult: SvcSsoPortalTestResult | null;
  readonly sessionExpiresAt: number;
}

/**
 * What a portal session may do (docs/reference/federation.md "The portal API and page": the portal can
 * configure only its session's organization): every operation runs for the session's organization, and
 * another organization's connection or claim is answered as not found (404), exactly like an unknown id.
 * The operations are the operators' own (validated and audited there), recorded with the setup link as
 * the actor.
 */
export class PortalSetup {
  readonly #deps: PortalSetupDeps;

  constructor(deps: PortalSetupDeps) {
    this.#deps = deps;
  }

  async overview(actor: PortalActor): Promise<PortalOverview> {
    const { session } = actor;
    const name = await this.#deps.organizationName(session.organizationId);
    if (name === undefined) throw new SvcNotFoundError('The organization was not found.');
    const [connections, domains] = await Promise.all([this.listConnections(actor), this.listDomains(actor)]);
    return {
      organization: { id: session.organizationId, name },
      connections,
      domains,
      testResult: session.testResult === null ? null : toSvcSsoPortalTestResult(session.testResult),
      sessionExpiresAt: session.expiresAt,
    };
  }

  async listConnections({ session }: PortalActor): Promise<SvcSsoConnection[]> {
    const page = await this.#deps.connections.listForOrganization(session.organizationId, {
      limit: LIST_LIMIT,
    });
    return page.data.map(toSvcSsoConnection);
  }

  /**
   * A primary domain sends every user of that domain to the connection's IdP, and nothing proves the
   * customer owns it: in the portal only verified domains (their claims) lead users to the connection.
   */
  async createConnection(
    actor: PortalActor,
    body: Omit<CreateSsoConnectionInput, 'organizationId'>,
  ): Promise<SvcSsoConnection> {
    if (body.primaryDomain !== undefined && body.primaryDomain !== null) {
      throw new SvcValidationError(
        'A connection made in the setup portal has no primary domain: verify your email domains instead, and their users sign in through the connection.',
        [{ path: 'primaryDomain', message: 'not accepted here: verify the domain instead' }],
      );
    }
    const created = await this.#deps.connections.createDraft(
      { ...body, organizationId: actor.session.organizationId },
      auditActor(actor),
    );
    return toSvcSsoConnection(created);
  }

  async getConnection(actor: PortalActor, id: string): Promise<SvcSsoConnection> {
    return toSvcSsoConnection(await this.#ownConnection(actor, id));
  }

  /**
   * Imports the metadata given, or fetched from the URL given: a fetch is an outbound request the
   * customer triggers, so a portal session gets a few a minute (429 past them; `rateLimits.ssoMetadataFetch`).
   */
  async importMetadata(
    actor: PortalActor,
    id: string,
    input: ImportSsoPortalMetadataInput,
  ): Promise<SvcSsoConnection> {
    await this.#ownConnection(actor, id);
    const { connections } = this.#deps;
    const { enableConnection } = input;
    if ('metadataXml' in input) {
      return toSvcSsoConnection(
        await connections.importMetadata(
          id,
          { metadataXml: input.metadataXml, enableConnection },
          auditActor(actor),
        ),
      );
    }
    const { fetcher, rateLimiter, policy } = this.#deps.metadataFetch;
    // A URL Svc would not fetch is refused before it counts: only requests that go out do.
    metadataUrl(input.metadataUrl);
    const decision = await rateLimiter.consume(policy, { identifier: actor.session.id });
    if (!decision.allowed) {
      throw new SvcTooManyAttemptsError(
        `Too many metadata downloads from this setup session. Try again ${retryAfterPhrase(decision.retryAfterMs)}, or upload the metadata file.`,
        decision.retryAfterMs,
      );
    }
    const fetched = await fetcher.fetch(input.metadataUrl);
    return toSvcSsoConnection(
      await connections.importMetadata(
        id,
        { metadataXml: fetched.metadataXml, enableConnection },
        auditActor(actor),
        fetched.url,
      ),
    );
  }

  async setEnabled(actor: PortalActor, id: string, enabled: boolean): Promise<SvcSsoConnection> {
    await this.#ownConnection(actor, id);
    return toSvcSsoConnection(await this.#deps.connections.setEnabled(id, enabled, auditActor(actor)));
  }

  /** Starts a test sign-in at the connection's IdP; the browser is to be sent to the returned URL. */
  async startTest(actor: PortalActor, id: string): Promise<string> {
    await this.#ownConnection(actor, id);
    const started = await this.#deps.serviceProvider.startAuthentication(
      id,
      portalTestContinuation(actor.session.id),
    );
    return started.redirectUrl;
  }

  async listDomains({ session }: PortalActor): Promise<SvcDomainClaim[]> {
    return (await this.#deps.domains.list(session.organizationId, { limit: LIST_LIMIT })).data;
  }

  startDomain(actor: PortalActor, domain: string): Promise<SvcDomainClaim> {
    return this.#deps.domains.start(actor.session.organizationId, domain, auditActor(actor));
  }

  verifyDomain(actor: PortalActor, id: string): Promise<SvcDomainClaim> {
    return this.#deps.domains.confirm(actor.session.organizationId, id, auditActor(actor));
  }

  async #ownConnection({ session }: PortalActor, id: string) {
    const connection = await this.#deps.connections.get(id);
    if (connection.organizationId !== session.organizationId) {
      throw new SvcNotFoundError(`SSO connection '${id}' was not found.`);
    }
    return connection;
  }
}

function auditActor({ session, ipAddress }: PortalActor): AdminActor {
  return { actorType: 'operator', actorId: portalActorId(session.linkId), ipAddress };
}
