import { createHash } from 'node:crypto';
import type { Clock } from '../../kernel/clock.js';
import { SvcUnavailableError } from '../../kernel/errors.js';
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
  readonly contributions: readonly DiscoveryContribution[];
  readonly clock: Clock;
  /** How long a built document is served before the client scopes are read again. */
  readonly cacheTtlMs?: number;
}

export interface DiscoveryDocument {
  readonly body: string;
  readonly etag: string;
}

const OPENID_SCOPES = ['openid', 'profile', 'email'];

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

/**
 * SPEC.md discovery rules: response_modes_supported ['query']; request and request_uri parameters
 * unsupported; OpenID fields while provider mode is on; scopes_supported is the sorted union of what any
 * client can be granted (plus openid, profile, email in provider mode), never an internal `auth:*` scope.
 */
export function buildMetadata(
  issuer: string,
  openIdEnabled: boolean,
  clientScopes: readonly string[][],
  contributions: readonly DiscoveryContribution[],
): Record<string, unknown> {
  const scopes = new Set<string>(openIdEnabled ? OPENID_SCOPES : []);
  for (const list of clientScopes) for (const scope of list) scopes.add(scope);
  const scopesSupported = [...scopes].filter((s) => !s.startsWith('auth:')).sort();
  const metadata: Record<string, unknown> = {
    issuer,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: scopesSupported,
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
 * Serves the precomputed discovery body with an ETag, rebuilt after a short TTL or on invalidate(), and
 * kept while the database is away.
 */
export class Discovery {
  readonly #deps: DiscoveryDeps;
  #cached: { at: number; document: DiscoveryDocument } | undefined;

  constructor(deps: DiscoveryDeps) {
    this.#deps = deps;
  }

  async document(): Promise<DiscoveryDocument> {
    const now = this.#deps.clock.now();
    const cached = this.#cached;
    if (cached !== undefined && now - cached.at < (this.#deps.cacheTtlMs ?? 10_000)) return cached.document;
    let scopeLists: Awaited<ReturnType<DiscoveryDeps['scopes']['allowedScopeLists']>>;
    try {
      scopeLists = await this.#deps.scopes.allowedScopeLists();
    } catch (error) {
      // While the database is away, the last document stays published (like the JWKS).
      if (cached !== undefined && error instanceof SvcUnavailableError) return cached.document;
      throw error;
    }
    const metadata = buildMetadata(
      this.#deps.issuer,
      this.#deps.openIdEnabled,
      scopeLists,
      this.#deps.contributions,
    );
    const body = JSON.stringify(metadata);
    const document = { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
    this.#cached = { at: now, document };
    return document;
  }

  /** Called when a client's scopes change on this node so that the next read is fresh. */
  invalidate(): void {
    this.#cached = undefined;
  }
}
