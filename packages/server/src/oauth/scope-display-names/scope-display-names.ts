import type {
  CreateScopeDisplayNameInput,
  SvcScopeDetail,
  SvcScopeDisplayName,
  UpdateScopeDisplayNameInput,
} from '@svc/contract';
import { actorFields, type AdminActor } from '../../audit/actor.js';
import type { AuditLog } from '../../audit/audit-log.js';
import { toIso, type Clock } from '../../kernel/clock.js';
import { SvcConflictError, SvcNotFoundError, SvcValidationError } from '../../kernel/errors.js';
import type { Ids } from '../../kernel/ids.js';
import type { ScopeDisplayNameRecord, ScopeDisplayNameRepository } from './repository.js';

/** An entry of `createSvc({ scopeDisplayNames })`, validated at start (config/scope-display-names.ts). */
export interface CodeScopeDisplayName {
  readonly scope: string;
  readonly displayName: string;
  readonly description: string | null;
}

export interface ScopeDisplayNamesDeps {
  /** The operators' entries. */
  readonly store: ScopeDisplayNameRepository;
  /** The host's entries: they win over a stored entry of the same scope and are closed to the API. */
  readonly codeOwned: readonly CodeScopeDisplayName[];
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** What consent says for the standard scopes without an entry; other scopes show their raw name. */
const STANDARD_SCOPE_NAMES: ReadonlyMap<string, string> = new Map([
  ['openid', 'Confirm who you are when you sign in'],
  ['profile', 'See your name and username'],
  ['email', 'See your email address'],
  ['offline_access', 'Keep access while you are not using it'],
]);

/** A code-owned entry's id: stable across starts and nodes, and never a stored id (those are `sdn_…`). */
const CODE_ID_PREFIX = 'code:';

/**
 * Scope display names (docs/reference/tokens-and-sessions.md
 * "Scopes"): operators create, replace and delete `dashboard`-owned entries (one per scope: a second is a
 * 409, as is one for a scope the host's code names); `code`-owned entries refuse changes with a 400.
 * Consent, device approval and grant lists read the entries on every view, so a change shows on every
 * node at the next view. Audited as `admin.scope_display_name.created`, `.updated` and `.deleted`.
 */
export class ScopeDisplayNames {
  readonly #deps: ScopeDisplayNamesDeps;
  readonly #code: ReadonlyMap<string, CodeScopeDisplayName>;

  constructor(deps: ScopeDisplayNamesDeps) {
    this.#deps = deps;
    this.#code = new Map(deps.codeOwned.map((entry) => [entry.scope, entry]));
  }

  /** Every entry in effect, by scope: the code's, and the stored ones of other scopes. */
  async list(): Promise<SvcScopeDisplayName[]> {
    const stored = (await this.#deps.store.list()).filter((record) => !this.#code.has(record.scope));
    return [...[...this.#code.values()].map(codeView), ...stored.map(storedView)].sort((a, b) =>
      a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0,
    );
  }

  async create(input: CreateScopeDisplayNameInput, actor?: AdminActor): Promise<SvcScopeDisplayName> {
    if (this.#code.has(input.scope)) {
      throw new SvcConflictError(
        `Scope '${input.scope}' has a display name set in code (createSvc({ scopeDisplayNames })): change it there.`,
      );
    }
    const now = this.#deps.clock.now();
    const record: ScopeDisplayNameRecord = {
      id: this.#deps.ids.id('sdn'),
      ...input,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.#deps.store.insertIfScopeFree(record))) {
      throw new SvcConflictError(`Scope '${input.scope}' already has a display name; change that entry.`);
    }
    await this.#record('admin.scope_display_name.created', record, actor);
    return storedView(record);
  }

  /** PUT: replaces both texts. */
  async update(
    id: string,
    input: UpdateScopeDisplayNameInput,
    actor?: AdminActor,
  ): Promise<SvcScopeDisplayName> {
    this.#refuseCodeOwned(id);
    const updated = await this.#deps.store.update(id, input, this.#deps.clock.now());
    if (updated === undefined) throw notFound(id);
    await this.#record('admin.scope_display_name.updated', updated, actor);
    return storedView(updated);
  }

  async delete(id: string, actor?: AdminActor): Promise<void> {
    this.#refuseCodeOwned(id);
    const deleted = await this.#deps.store.delete(id);
    if (deleted === undefined) throw notFound(id);
    await this.#record('admin.scope_display_name.deleted', deleted, actor);
  }

  /**
   * The scopes in order, without duplicates, as a user reads them: an entry's texts (the code's first),
   * else a standard scope's words, else the raw name (displayName null).
   */
  async describe(scopes: readonly string[]): Promise<SvcScopeDetail[]> {
    const wanted = [...new Set(scopes)].filter((scope) => scope !== '');
    const stored = await this.#deps.store.findByScopes(wanted.filter((scope) => !this.#code.has(scope)));
    const entries = new Map<string, CodeScopeDisplayName>(stored.map((record) => [record.scope, record]));
    return wanted.map((scope) => {
      const entry = this.#code.get(scope) ?? entries.get(scope);
      return entry === undefined
        ? { scope, displayName: STANDARD_SCOPE_NAMES.get(scope) ?? null, description: null }
        : { scope, displayName: entry.displayName, description: entry.description };
    });
  }

  /** docs/reference/tokens-and-sessions.md "Scopes": code-owned entries "refuse PUT/DELETE with 400"; an unknown `code:` id is a 404. */
  #refuseCodeOwned(id: string): void {
    if (!id.startsWith(CODE_ID_PREFIX)) return;
    if (!this.#code.has(id.slice(CODE_ID_PREFIX.length))) throw notFound(id);
    throw new SvcValidationError(
      `Scope display name '${id}' is set in code (createSvc({ scopeDisplayNames })): change it there.`,
    );
  }

  #record(kind: string, record: ScopeDisplayNameRecord, actor: AdminActor | undefined): Promise<void> {
    return this.#deps.audit.record({
      kind,
      ...actorFields(actor),
      data: { scopeDisplayNameId: record.id, scope: record.scope },
    });
  }
}

function notFound(id: string): SvcNotFoundError {
  return new SvcNotFoundError(`Scope display name '${id}' was not found.`);
}

function codeView(entry: CodeScopeDisplayName): SvcScopeDisplayName {
  return {
    id: `${CODE_ID_PREFIX}${entry.scope}`,
    ...entry,
    ownership: 'code',
    createdAt: null,
    updatedAt: null,
  };
}

function storedView(record: ScopeDisplayNameRecord): SvcScopeDisplayName {
  return {
    id: record.id,
    scope: record.scope,
    displayName: record.displayName,
    description: record.description,
    ownership: 'dashboard',
    createdAt: toIso(record.createdAt),
    updatedAt: toIso(record.updatedAt),
  };
}
