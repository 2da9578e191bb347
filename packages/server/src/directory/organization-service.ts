import type { CreateOrganizationInput, OrganizationListInput, Page } from '@svc/contract';
import { SvcConflictError } from '../kernel/errors.js';
import { actorFields, type AdminActor } from '../audit/actor.js';
import type { DirectoryDeps } from './deps.js';
import type { OrganizationRecord } from './repository.js';
import { slugCandidate, slugify } from './slug.js';

/** How many times a generated slug is retried when other writers take candidates concurrently. */
const MAX_SLUG_ATTEMPTS = 20;

/** Creates and lists organizations. */
export class OrganizationService {
  readonly #deps: DirectoryDeps;

  constructor(deps: DirectoryDeps) {
    this.#deps = deps;
  }

  /**
   * Creates an organization. An explicit slug must be free (409 otherwise); without one the slug is
   * generated from the name and made unique with `-2`, `-3`…. Uniqueness rests on the unique index:
   * the free suffix is computed from one query, and an insert that loses a race moves to the next one.
   */
  async create(input: CreateOrganizationInput, actor?: AdminActor): Promise<OrganizationRecord> {
    const now = this.#deps.clock.now();
    const draft = (slug: string): OrganizationRecord => ({
      id: this.#deps.ids.id('org'),
      name: input.name,
      slug,
      primaryDomain: input.primaryDomain,
      active: true,
      createdAt: now,
      updatedAt: now,
    });
    const organizations = this.#deps.repositories.organizations;

    let created: OrganizationRecord | undefined;
    if (input.slug !== null) {
      const record = draft(input.slug);
      if (!(await organizations.insertIfSlugFree(record))) {
        throw new SvcConflictError(`The slug '${input.slug}' is already taken by another organization.`);
      }
      created = record;
    } else {
      const base = slugify(input.name);
      const taken = new Set(await organizations.slugsLike(base));
      let n = 1;
      for (let attempt = 0; attempt < MAX_SLUG_ATTEMPTS && created === undefined; attempt += 1) {
        while (taken.has(slugCandidate(base, n))) n += 1;
        const record = draft(slugCandidate(base, n));
        if (await organizations.insertIfSlugFree(record)) created = record;
        else taken.add(record.slug);
      }
      if (created === undefined) {
        throw new SvcConflictError(
          'Could not find a free slug for this organization; pass an explicit slug.',
        );
      }
    }

    await this.#deps.audit.record({
      kind: 'admin.organization.created',
      ...actorFields(actor),
      organizationId: created.id,
      data: { name: created.name, slug: created.slug, primaryDomain: created.primaryDomain },
    });
    return created;
  }

  get(id: string): Promise<OrganizationRecord | undefined> {
    return this.#deps.repositories.organizations.findById(id);
  }

  /** Newest first, narrowed by `query` and `active`; `nextCursor` is null on the last page. */
  list(input: OrganizationListInput): Promise<Page<OrganizationRecord>> {
    const { limit, cursor, query, active } = input;
    return this.#deps.repositories.organizations.list({ limit, cursor, search: query, active });
  }
}
