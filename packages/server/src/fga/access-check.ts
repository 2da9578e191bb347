import { FGA_MAX_DEPTH, type SvcFgaSubjectRef } from '@svc/contract';
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

/**
 * A Map that empties itself when full. Not an LRU: moving an entry on every hit (delete and set) makes
 * V8 rehash a large Map every few thousand hits, a pause that showed in the checks' p99; a snapshot
 * lives until the next write of the model anyway, and refills from the database at the next checks.
 */
class BoundedMap<K, V> extends Map<K, V> {
  readonly #capacity: number;

  constructor(capacity: number) {
    super();
    this.#capacity = capacity;
  }

  override set(key: K, value: V): this {
    if (this.size >= this.#capacity && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}

/** A value loaded, or its load in flight (replaced by the value once loaded). */
type Cached<V> = V | Promise<V>;

/** How many resources' chains one query loads at most. */
const CHAIN_BATCH = 500;

/** A chain asked for and not yet loaded: the check waiting for it is settled through these. */
interface ChainMiss {
  readonly resolve: (chain: readonly string[]) => void;
  readonly reject: (error: unknown) => void;
}

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
  readonly chains: BoundedMap<string, Cached<readonly string[]>>;
  /** `type:id` → the grants the subject holds, by the resource they are on. */
  readonly subjects: BoundedMap<string, Cached<ReadonlyMap<string, readonly HeldGrant[]>>>;
  /** Every role (a one-entry map, to share {@link cached}). */
  readonly roles = new BoundedMap<'all', Cached<ReadonlyMap<string, CachedRole>>>(1);
  /** The chains missed by the checks of this tick, loaded together once they have all asked. */
  chainMisses: Map<string, ChainMiss> | undefined;

  constructor(version: number, limits: FgaCacheLimits) {
    this.version = version;
    this.chains = new BoundedMap(limits.resources);
    this.subjects = new BoundedMap(limits.subjects);
  }
}

const NO_ACCESS: FgaDecision = { allowed: false, explanation: null };
const ALLOWED: FgaDecision = { allowed: true, explanation: null };

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

  /** The decision; with `explain`, the grant that allows it (made only when asked: checks are hot). */
  async check(request: FgaCheckRequest, explain = false): Promise<FgaDecision> {
    const snapshot = this.#snapshotOf(await this.#version.current());
    const { resourceId, subject } = request;
    const chainOrLoad = cached(snapshot.chains, resourceId, () => this.#loadChain(snapshot, resourceId));
    const chain = chainOrLoad instanceof Promise ? await chainOrLoad : chainOrLoad;
    if (chain.length === 0) return NO_ACCESS;
    const heldOrLoad = cached(snapshot.subjects, `${subject.type}:${subject.id}`, () =>
      this.#loadSubject(subject),
    );
    const held = heldOrLoad instanceof Promise ? await heldOrLoad : heldOrLoad;
    if (held.size === 0) return NO_ACCESS;
    const rolesOrLoad = cached(snapshot.roles, 'all', () => this.#loadRoles());
    const roles = rolesOrLoad instanceof Promise ? await rolesOrLoad : rolesOrLoad;
    for (let level = 0; level < chain.length; level += 1) {
      const grants = held.get(chain[level] as string);
      if (grants === undefined) continue;
      for (const { grant, viaGroupId } of grants) {
        const role = roles.get(grant.roleId);
        if (role?.permissions.has(request.permissionKey) !== true) continue;
        if (!explain) return ALLOWED;
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

  #snapshotOf(version: number): Snapshot {
    const snapshot = this.#snapshot;
    if (snapshot !== undefined && snapshot.version >= version) return snapshot;
    const fresh = new Snapshot(version, this.#limits);
    this.#snapshot = fresh;
    return fresh;
  }

  /**
   * After a write, every resource a busy node checks misses at once: one query per resource would be
   * thousands of round trips. The misses of one tick are loaded together when it ends, and each chain
   * also fills its ancestors' (the suffixes of a chain that reached its root).
   */
  #loadChain(snapshot: Snapshot, resourceId: string): Promise<readonly string[]> {
    let misses = snapshot.chainMisses;
    if (misses === undefined) {
      const batch = new Map<string, ChainMiss>();
      misses = batch;
      snapshot.chainMisses = batch;
      queueMicrotask(() => {
        snapshot.chainMisses = undefined;
        this.#loadChains(snapshot, batch);
      });
    }
    const asked = misses;
    return new Promise((resolve, reject) => asked.set(resourceId, { resolve, reject }));
  }

  #loadChains(snapshot: Snapshot, batch: ReadonlyMap<string, ChainMiss>): void {
    const ids = [...batch.keys()];
    for (let i = 0; i < ids.length; i += CHAIN_BATCH) {
      const slice = ids.slice(i, i + CHAIN_BATCH);
      this.#repository.ancestorChains(slice, FGA_MAX_DEPTH).then(
        (chains) => {
          for (const chain of chains.values()) {
            if (chain.length >= FGA_MAX_DEPTH) continue;
            for (let level = 1; level < chain.length; level += 1) {
              const ancestor = chain[level] as string;
              if (!snapshot.chains.has(ancestor)) snapshot.chains.set(ancestor, chain.slice(level));
            }
          }
          for (const id of slice) batch.get(id)?.resolve(chains.get(id) ?? []);
        },
        (error: unknown) => {
          for (const id of slice) batch.get(id)?.reject(error);
        },
      );
    }
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

/**
 * The value under `key`, loaded once by the first check that misses it: the checks that miss it
 * meanwhile share the load, and the value replaces the load once it is there. A failed load is not kept.
 */
function cached<K, V>(map: BoundedMap<K, Cached<V>>, key: K, load: () => Promise<V>): Cached<V> {
  const held = map.get(key);
  if (held !== undefined) return held;
  const loading = load();
  map.set(key, loading);
  loading.then(
    (value) => {
      if (map.get(key) === loading) map.set(key, value);
    },
    () => {
      if (map.get(key) === loading) map.delete(key);
    },
  );
  return loading;
}
