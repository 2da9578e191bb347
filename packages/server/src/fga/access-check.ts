import { FGA_MAX_DEPTH, type SvcFgaSubjectRef } from '@svc/contract';
import { LruMap } from '../kernel/lru-map.js';
import { ModelVersion } from './model-version.js';
import type { FgaGrantRecord, FgaRepository } from './repository.js';

/** Why a check is allowed (see SvcFgaExplanation). */
export interface FgaExplanation {
  readonly grantId: string;
  readonly roleId: string;
  readonly roleKey: string;
  readonly grantedOnResourceId: string;
  readonly viaGroupId: string | null;
  readonly path: readonly string[];
}

export interface FgaDecision {
  readonly allowed: boolean;
  readonly explanation: FgaExplanation | null;
}

export interface FgaCheckRequest {
  readonly subject: SvcFgaSubjectRef;
  readonly resourceId: string;
  readonly permissionKey: string;
}

/** How many resources' chains and subjects' grants a node keeps (about 1 KB each at most). */
export interface FgaCacheLimits {
  readonly resources: number;
  readonly subjects: number;
}

export const DEFAULT_FGA_CACHE_LIMITS: FgaCacheLimits = { resources: 100_000, subjects: 20_000 };

interface CachedRole {
  readonly key: string;
  readonly permissions: ReadonlySet<string>;
}

interface HeldGrant {
  readonly grant: FgaGrantRecord;
  readonly viaGroupId: string | null;
}

/** What one version of the model has told this node; replaced whole when the version moves. */
class Snapshot {
  readonly version: number;
  // Loads in flight are kept as well as their results, so that the checks that miss together read once.
  /** Resource → itself and its ancestors, root last; empty for an unknown resource. */
  readonly chains: LruMap<string, Promise<readonly string[]>>;
  /** `type:id` → the grants the subject holds, by the resource they are on. */
  readonly subjects: LruMap<string, Promise<ReadonlyMap<string, readonly HeldGrant[]>>>;
  /** Every role (a one-entry map, to share {@link cached}). */
  readonly roles = new LruMap<'all', Promise<ReadonlyMap<string, CachedRole>>>(1);

  constructor(version: number, limits: FgaCacheLimits) {
    this.version = version;
    this.chains = new LruMap(limits.resources);
    this.subjects = new LruMap(limits.subjects);
  }
}

const NO_ACCESS: FgaDecision = { allowed: false, explanation: null };

/**
 * The check: does the subject hold, directly or through a group, a role with the permission on the
 * resource or one of its ancestors? The nearest grant wins the explanation (the resource itself
 * first, then up the tree; the subject's own grant before a group's).
 *
 * What the database said is kept per model version: every check first reads the version (one row by
 * its key, shared by concurrent checks; model-version.ts), and a new version starts an empty snapshot,
 * so a write committed on any node is seen by the next check on every node. A snapshot is made only
 * after its version was read, and whatever fills it is read after that: it never holds what a write
 * before its version undid.
 */
export class FgaAccessCheck {
  readonly #repository: FgaRepository;
  readonly #version: ModelVersion;
  readonly #limits: FgaCacheLimits;
  #snapshot: Snapshot | undefined;

  constructor(repository: FgaRepository, limits: FgaCacheLimits = DEFAULT_FGA_CACHE_LIMITS) {
    this.#repository = repository;
    this.#version = new ModelVersion(() => repository.version());
    this.#limits = limits;
  }

  async check(request: FgaCheckRequest): Promise<FgaDecision> {
    const snapshot = await this.#current();
    const { resourceId, subject } = request;
    const chain = await cached(snapshot.chains, resourceId, () =>
      this.#repository.ancestorChain(resourceId, FGA_MAX_DEPTH),
    );
    if (chain.length === 0) return NO_ACCESS;
    const held = await cached(snapshot.subjects, `${subject.type}:${subject.id}`, () =>
      this.#loadSubject(subject),
    );
    if (held.size === 0) return NO_ACCESS;
    const roles = await cached(snapshot.roles, 'all', () => this.#loadRoles());
    for (let level = 0; level < chain.length; level += 1) {
      const grants = held.get(chain[level] as string);
      if (grants === undefined) continue;
      for (const { grant, viaGroupId } of grants) {
        const role = roles.get(grant.roleId);
        if (role?.permissions.has(request.permissionKey) !== true) continue;
        return {
          allowed: true,
          explanation: {
            grantId: grant.id,
            roleId: grant.roleId,
            roleKey: role.key,
            grantedOnResourceId: grant.resourceId,
            viaGroupId,
            path: chain.slice(0, level + 1),
          },
        };
      }
    }
    return NO_ACCESS;
  }

  async #current(): Promise<Snapshot> {
    const version = await this.#version.current();
    const snapshot = this.#snapshot;
    if (snapshot !== undefined && snapshot.version >= version) return snapshot;
    const fresh = new Snapshot(version, this.#limits);
    this.#snapshot = fresh;
    return fresh;
  }

  async #loadSubject(subject: SvcFgaSubjectRef): Promise<ReadonlyMap<string, readonly HeldGrant[]>> {
    const { grants } = await this.#repository.subjectGrants(subject);
    // The subject's own grants first, so that they explain a decision before a group's do.
    const ordered = [...grants].sort((a, b) => Number(a.viaGroupId !== null) - Number(b.viaGroupId !== null));
    const byResource = new Map<string, HeldGrant[]>();
    for (const held of ordered) {
      const list = byResource.get(held.grant.resourceId);
      if (list === undefined) byResource.set(held.grant.resourceId, [held]);
      else list.push(held);
    }
    return byResource;
  }

  async #loadRoles(): Promise<ReadonlyMap<string, CachedRole>> {
    const roles = await this.#repository.allRoles();
    return new Map(
      roles.map((role) => [role.id, { key: role.key, permissions: new Set(role.permissionKeys) }]),
    );
  }
}

/** The value under `key`, loaded once by the first check that misses it; a failed load is not kept. */
function cached<K, V>(map: LruMap<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
  const held = map.get(key);
  if (held !== undefined) return held;
  const loading = load();
  map.set(key, loading);
  loading.catch(() => {
    if (map.get(key) === loading) map.delete(key);
  });
  return loading;
}
