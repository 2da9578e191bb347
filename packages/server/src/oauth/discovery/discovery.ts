import type { Clock } from '../../kernel/clock.js';
import { SvcUnavailableError } from '../../kernel/errors.js';
import { staticDocument, type StaticDocument } from '../../kernel/static-document.js';
import { OPENID_STANDARD_SCOPES } from '../scopes.js';
import type { GrantableScopesSource } from './repository.js';

/**
 * Metadata fields that a built capability contributes (for example jwks_uri now, token_endpoint when the
 * token endpoint lands): SPEC-less endpoints that are not built are simply never contributed.
 */
export type DiscoveryContribution = Readonly<Record<string, unknown>>;

export interface DiscoveryDeps {
  readonly issuer: string;
  readonly openIdEnabled: boolean;
  readonly scopes: GrantableScopesSource;
  /** Scopes that dynamically registered clients may be granted (the registration ceiling). */
  readonly registrationScopes?: readonly string[];
  readonly contributions: readonly DiscoveryContribution[];
  readonly clock: Clock;
  /** How long a built document is served before the client scopes are read again. */
  readonly cacheTtlMs?: number;
}

/** Claims the provider can release in ID tokens and from userinfo. */
export const CLAIMS_SUPPORTED = [
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'amr',
  'sid',
  'name',
  'preferred_username',
  'updated_at',
  'email',
  'email_verified',
  'org_id',
];

/** scopes_supported: what any client can be granted, plus openid, profile and email in provider mode. */
function supportedScopes(openIdEnabled: boolean, clientScopes: readonly string[][]): string[] {
  const scopes = new Set<string>(openIdEnabled ? OPENID_STANDARD_SCOPES : []);
  for (const list of clientScopes) for (const scope of list) scopes.add(scope);
  return [...scopes].filter((s) => !s.startsWith('auth:')).sort();
}

/**
 * docs/reference/tokens-and-sessions.md "Discovery and JWKS" discovery rules: response_modes_supported ['query']; request and request_uri parameters
 * unsupported; OpenID fields while provider mode is on; scopes_supported is the sorted union of what any
 * client can be granted (plus openid, profile, email in provider mode), never an internal `auth:*` scope.
 */
export function buildMetadata(
  issuer: string,
  openIdEnabled: boolean,
  clientScopes: readonly string[][],
  contributions: readonly DiscoveryContribution[],
): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    issuer,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: supportedScopes(openIdEnabled, clientScopes),
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
  };
  for (const contribution of contributions) Object.assign(metadata, contribution);
  if (openIdEnabled) {
    metadata.subject_types_supported = ['public'];
    metadata.id_token_signing_alg_values_supported = ['RS256'];
    metadata.claims_supported = CLAIMS_SUPPORTED;
  } else {
    delete metadata.userinfo_endpoint;
  }
  return metadata;
}

/**
 * The discovery document, built once and served from memory: read again after a short TTL (so that
 * another node's client changes show) or at once after invalidate(), serialized again only when what it
 * says changes, and kept while the database is away.
 */
export class Discovery {
  readonly #deps: DiscoveryDeps;
  readonly #ttl: number;
  #cached: { readonly at: number; readonly scopes: string; readonly document: StaticDocument } | undefined;
  /** The read in flight, shared by every request that finds the document due. */
  #loading: Promise<StaticDocument> | undefined;
  /** Bumped by invalidate(): a read that started before it cannot be kept. */
  #generation = 0;

  constructor(deps: DiscoveryDeps) {
    this.#deps = deps;
    this.#ttl = deps.cacheTtlMs ?? 10_000;
  }

  /** The document without waiting while it is fresh; undefined when it is due to be read again. */
  current(): StaticDocument | undefined {
    const cached = this.#cached;
    return cached !== undefined && this.#deps.clock.now() - cached.at < this.#ttl
      ? cached.document
      : undefined;
  }

  async document(): Promise<StaticDocument> {
    const current = this.current();
    if (current !== undefined) return current;
    if (this.#loading === undefined) {
      const loading = this.#load(this.#generation).finally(() => {
        if (this.#loading === loading) this.#loading = undefined;
      });
      this.#loading = loading;
    }
    return this.#loading;
  }

  /** Called when a client's scopes change on this node so that the next read is fresh. */
  invalidate(): void {
    this.#cached = undefined;
    this.#loading = undefined;
    this.#generation += 1;
  }

  async #load(generation: number): Promise<StaticDocument> {
    const at = this.#deps.clock.now();
    const cached = this.#cached;
    let scopeLists: Awaited<ReturnType<DiscoveryDeps['scopes']['allowedScopeLists']>>;
    try {
      scopeLists = [
        ...(await this.#deps.scopes.allowedScopeLists()),
        [...(this.#deps.registrationScopes ?? [])],
      ];
    } catch (error) {
      // While the database is away, the last document stays published (like the JWKS).
      if (cached !== undefined && error instanceof SvcUnavailableError) return cached.document;
      throw error;
    }
    const { issuer, openIdEnabled, contributions } = this.#deps;
    // Everything else in the document is fixed at start: the scopes decide whether it changed.
    const scopes = supportedScopes(openIdEnabled, scopeLists).join(' ');
    const document =
      cached?.scopes === scopes
        ? cached.document
        : staticDocument(buildMetadata(issuer, openIdEnabled, scopeLists, contributions));
    if (generation === this.#generation) this.#cached = { at, scopes, document };
    return document;
  }
}
