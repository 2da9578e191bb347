import {
  createScopeDisplayNameBodySchema,
  scopeDisplayNamePathSchema,
  updateScopeDisplayNameBodySchema,
  type CreateScopeDisplayNameBody,
  type SvcScopeDisplayName,
  type SvcScopeDisplayNameDeleteResult,
  type UpdateScopeDisplayNameBody,
} from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import { validate } from '../../kernel/validation.js';
import type { ScopeDisplayNames } from '../../oauth/scope-display-names/scope-display-names.js';

export interface SvcAdminScopeDisplayNamesDeps {
  /** Scope display names: the operators' entries and the host's code-owned ones (audited there). */
  readonly scopeDisplayNames: ScopeDisplayNames;
}

/**
 * The scope display name operations of SvcAdminService (docs/reference/tokens-and-sessions.md "Scopes"
 * ). Bodies are validated with the
 * contract schemas of the HTTP routes (400); a second entry for a scope is a 409 (also beside a
 * code-owned one); changing or deleting a code-owned entry (`code:<scope>`) is a 400; an unknown id a 404.
 */
export class SvcAdminScopeDisplayNames {
  readonly #names: ScopeDisplayNames;

  constructor(deps: SvcAdminScopeDisplayNamesDeps) {
    this.#names = deps.scopeDisplayNames;
  }

  /** Every entry in effect, code-owned and dashboard-owned, ordered by scope (`{ data }`, not paged). */
  async listScopeDisplayNamesAsync(): Promise<{ data: SvcScopeDisplayName[] }> {
    return { data: await this.#names.list() };
  }

  /** A dashboard-owned entry; consent shows it from the next view on, on every node. */
  createScopeDisplayNameAsync(
    request: CreateScopeDisplayNameBody,
    actor?: AdminActor,
  ): Promise<SvcScopeDisplayName> {
    return this.#names.create(
      validate(createScopeDisplayNameBodySchema, request, 'scope display name'),
      actor,
    );
  }

  /** Replaces the entry's texts (PUT): an omitted description removes it. */
  updateScopeDisplayNameAsync(
    id: string,
    request: UpdateScopeDisplayNameBody,
    actor?: AdminActor,
  ): Promise<SvcScopeDisplayName> {
    const input = validate(updateScopeDisplayNameBodySchema, request, 'scope display name');
    return this.#names.update(this.#id(id), input, actor);
  }

  async deleteScopeDisplayNameAsync(
    id: string,
    actor?: AdminActor,
  ): Promise<SvcScopeDisplayNameDeleteResult> {
    await this.#names.delete(this.#id(id), actor);
    return { deleted: true };
  }

  #id(id: string): string {
    return validate(scopeDisplayNamePathSchema, { id }, 'scope display name id').id;
  }
}
