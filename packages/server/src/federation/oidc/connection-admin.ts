import type { CreateOidcConnectionInput, Page, PageQuery, UpdateOidcConnectionInput } from '@svc/contract';
import { actorFields, type AdminActor } from '../../audit/actor.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../kernel/clock.js';
import { SvcConfigError, SvcNotFoundError, SvcValidationError } from '../../kernel/errors.js';
import type { Ids } from '../../kernel/ids.js';
import { assertApplePrivateKey } from './apple-key.js';
import { connectionSettings, type OidcConnectionInputFields } from './connection-rules.js';
import {
  openSecrets,
  sealApplePrivateKey,
  sealClientSecret,
  type SecretSealer,
} from './connection-secrets.js';
import type {
  OidcConnectionChanges,
  OidcConnectionOwner,
  OidcConnectionRecord,
  OidcConnectionRepository,
  OidcConnectionSettings,
} from './repository.js';

export interface OidcConnectionAdminDeps {
  readonly repository: OidcConnectionRepository;
  /** The master key's box: secrets are sealed before they are stored. */
  readonly secrets: SecretSealer;
  /** Whether the organization a connection is scoped to exists. */
  readonly organizationExists: (organizationId: string) => Promise<boolean>;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** The 404 of an unknown connection id. */
export function connectionNotFound(id: string): SvcNotFoundError {
  return new SvcNotFoundError(`OIDC connection '${id}' was not found.`);
}

/**
 * The operator's OpenID / social provider connections: create, read, list, replace, enable, disable and
 * delete; those seeded from code (owner `code`) are written by `applySeed` on every start and only read
 * here. Inputs arrive parsed by the contract schemas; the provider type's own rules are checked here
 * (connection-rules.ts), the Apple key is imported once to prove it signs ES256, and secrets are sealed
 * with the master key before they are stored. Audited as `admin.oidc_connection.created`, `.updated`
 * (field names only), `.enabled`, `.disabled` and `.deleted`; no event carries a secret or a value.
 */
export class OidcConnectionAdmin {
  readonly #deps: OidcConnectionAdminDeps;

  constructor(deps: OidcConnectionAdminDeps) {
    this.#deps = deps;
  }

  /** Creates the connection; `{connectionId}` in its callback URIs becomes its new id. */
  create(input: CreateOidcConnectionInput, actor?: AdminActor): Promise<OidcConnectionRecord> {
    return this.#insert(this.#deps.ids.id('oidc'), input, 'dashboard', actor);
  }

  /**
   * Writes a connection seeded from code (createSvc({ oidc })) on a start: creates it with owner `code`,
   * or replaces its settings, secrets and enabled state. Refuses (SvcConfigError) an id that an
   * operator's connection holds, and a seed that breaks the operator API's rules, naming the seed.
   */
  async applySeed(id: string, input: CreateOidcConnectionInput): Promise<OidcConnectionRecord> {
    const current = await this.#deps.repository.findById(id);
    if (current !== undefined && current.owner !== 'code') {
      throw new SvcConfigError(
        `OIDC connection seed '${id}': a connection with this id exists and is not this seed's.`,
      );
    }
    try {
      if (current === undefined) return await this.#insert(id, input, 'code', undefined);
      // A secret as stored is kept, not sealed again: a start that changes nothing writes nothing.
      const stored = openSecrets(this.#deps.secrets, current);
      return await this.#replace(
        current,
        {
          ...input,
          clientSecret: input.clientSecret === stored.clientSecret ? null : input.clientSecret,
          applePrivateKeyPem:
            input.applePrivateKeyPem === stored.applePrivateKeyPem ? null : input.applePrivateKeyPem,
        },
        undefined,
      );
    } catch (error) {
      if (!(error instanceof SvcValidationError || error instanceof SvcNotFoundError)) throw error;
      throw new SvcConfigError(`OIDC connection seed '${id}': ${error.message}`);
    }
  }

  async #insert(
    id: string,
    input: CreateOidcConnectionInput,
    owner: OidcConnectionOwner,
    actor: AdminActor | undefined,
  ): Promise<OidcConnectionRecord> {
    const { clock, secrets, repository } = this.#deps;
    const settings = connectionSettings(input, { connectionId: id, secretsRequired: true });
    await this.#checkReferences(input);
    const now = clock.now();
    const record: OidcConnectionRecord = {
      id,
      ...settings,
      clientSecretSealed:
        input.clientSecret === null ? null : sealClientSecret(secrets, id, input.clientSecret),
      applePrivateKeySealed:
        input.applePrivateKeyPem === null ? null : sealApplePrivateKey(secrets, id, input.applePrivateKeyPem),
      enabled: input.enabled,
      owner,
      createdAt: now,
      updatedAt: now,
    };
    await repository.insert(record);
    await this.#record('created', record, actor, {
      displayName: record.displayName,
      enabled: record.enabled,
      ...(owner === 'code' ? { owner } : {}),
    });
    return record;
  }

  /** The connection, or a 404. */
  async get(id: string): Promise<OidcConnectionRecord> {
    const found = await this.#deps.repository.findById(id);
    if (found === undefined) throw connectionNotFound(id);
    return found;
  }

  /** Newest first; `nextCursor` is null on the last page. */
  list(query: PageQuery): Promise<Page<OidcConnectionRecord>> {
    return this.#deps.repository.list(query);
  }

  /**
   * Replaces the settings (PUT). The provider type cannot change (400): the identities a connection
   * signs in belong to its provider. Omitted secrets and an omitted `enabled` keep their values.
   */
  async update(
    id: string,
    input: UpdateOidcConnectionInput,
    actor?: AdminActor,
  ): Promise<OidcConnectionRecord> {
    return this.#replace(await this.#changeable(id), input, actor);
  }

  async #replace(
    current: OidcConnectionRecord,
    input: UpdateOidcConnectionInput,
    actor: AdminActor | undefined,
  ): Promise<OidcConnectionRecord> {
    const { id } = current;
    if (input.providerType !== current.providerType) {
      throw new SvcValidationError(
        `Invalid ${current.providerType} connection: providerType cannot change to ${input.providerType}; create a new connection instead.`,
        [{ path: 'providerType', message: `must stay ${current.providerType}` }],
      );
    }
    const settings = connectionSettings(input, { connectionId: id, secretsRequired: false });
    await this.#checkReferences(input);
    const { secrets } = this.#deps;
    const changes: OidcConnectionChanges = {
      ...settings,
      ...(input.clientSecret === null
        ? {}
        : { clientSecretSealed: sealClientSecret(secrets, id, input.clientSecret) }),
      ...(input.applePrivateKeyPem === null
        ? {}
        : { applePrivateKeySealed: sealApplePrivateKey(secrets, id, input.applePrivateKeyPem) }),
      ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
    };
    const changed = changedFields(current, settings, input);
    const enabledChanged = input.enabled !== undefined && input.enabled !== current.enabled;
    if (changed.length === 0 && !enabledChanged) return current;

    const updated = await this.#write(id, changes);
    if (changed.length > 0) await this.#record('updated', updated, actor, { changed });
    if (enabledChanged) await this.#record(updated.enabled ? 'enabled' : 'disabled', updated, actor);
    return updated;
  }

  /** Enables or disables the connection; a disabled one is offered nowhere and completes no sign-in. */
  async setEnabled(id: string, enabled: boolean, actor?: AdminActor): Promise<OidcConnectionRecord> {
    const current = await this.#changeable(id);
    if (current.enabled === enabled) return current;
    const updated = await this.#write(id, { enabled });
    await this.#record(enabled ? 'enabled' : 'disabled', updated, actor);
    return updated;
  }

  /** Deletes the connection and its sealed secrets; a 404 when it does not exist. */
  async delete(id: string, actor?: AdminActor): Promise<void> {
    await this.#changeable(id);
    const deleted = await this.#deps.repository.delete(id);
    if (deleted === undefined) throw connectionNotFound(id);
    await this.#record('deleted', deleted, actor, { displayName: deleted.displayName });
  }

  /** The connection, unless it is configured in code: then the operator API may read it only (400). */
  async #changeable(id: string): Promise<OidcConnectionRecord> {
    const current = await this.get(id);
    if (current.owner === 'code') {
      throw new SvcValidationError(
        `OIDC connection '${id}' is configured in code (createSvc({ oidc })): change it there.`,
      );
    }
    return current;
  }

  /** The Apple key signs ES256 (400), and the organization exists (404, as for memberships). */
  async #checkReferences(input: OidcConnectionInputFields): Promise<void> {
    if (input.applePrivateKeyPem !== null) await assertApplePrivateKey(input.applePrivateKeyPem);
    if (input.organizationId !== null && !(await this.#deps.organizationExists(input.organizationId))) {
      throw new SvcNotFoundError(`Organization '${input.organizationId}' was not found.`);
    }
  }

  async #write(id: string, changes: OidcConnectionChanges): Promise<OidcConnectionRecord> {
    const updated = await this.#deps.repository.update(id, changes, this.#deps.clock.now());
    if (updated === undefined) throw connectionNotFound(id);
    return updated;
  }

  #record(
    suffix: 'created' | 'updated' | 'enabled' | 'disabled' | 'deleted',
    connection: OidcConnectionRecord,
    actor: AdminActor | undefined,
    data: Readonly<Record<string, unknown>> = {},
  ): Promise<void> {
    return this.#deps.audit.record({
      kind: `admin.oidc_connection.${suffix}`,
      ...actorFields(actor),
      ...(connection.organizationId === null ? {} : { organizationId: connection.organizationId }),
      data: { connectionId: connection.id, providerType: connection.providerType, ...data },
    });
  }
}

/** The names of the settings that differ, and of the secrets the update replaces (never their values). */
function changedFields(
  current: OidcConnectionRecord,
  settings: OidcConnectionSettings,
  input: OidcConnectionInputFields,
): string[] {
  const changed: string[] = (Object.keys(settings) as (keyof OidcConnectionSettings)[]).filter(
    (field) => JSON.stringify(settings[field]) !== JSON.stringify(current[field]),
  );
  if (input.clientSecret !== null) changed.push('clientSecret');
  if (input.applePrivateKeyPem !== null) changed.push('applePrivateKeyPem');
  return changed;
}
