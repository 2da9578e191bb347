import { MFA_FACTORS, type SvcMfaSettings, type SvcOrganizationMfaPolicy } from '@svc/contract';
import { actorFields, type AdminActor } from '../../../audit/actor.js';
import type { AuditLog } from '../../../audit/audit-log.js';
import type { Clock } from '../../../kernel/clock.js';
import { SvcNotFoundError } from '../../../kernel/errors.js';
import type { MfaPolicyStore } from './repository.js';

/**
 * Defaults (docs/reference/sign-in.md "Multi-factor authentication"): MFA is available (users may enroll an authenticator app
 * and get recovery codes) but required of nobody until an operator says so.
 */
export const DEFAULT_MFA_SETTINGS: SvcMfaSettings = Object.freeze({
  enabled: true,
  totpEnabled: true,
  userSelfEnrollmentEnabled: true,
  recoveryCodesEnabled: true,
  requireForAllUsers: false,
  requireForOwnersAndAdmins: false,
  requiredRoles: [],
  availableFactors: ['totp', 'recovery_code'],
}) as SvcMfaSettings;

/** An organization without a stored policy: not enabled, so only the global settings apply. */
export const DEFAULT_ORGANIZATION_MFA_POLICY: SvcOrganizationMfaPolicy = Object.freeze({
  isEnabled: false,
  requireMfaForAllUsers: false,
  requireMfaForOwnersAndAdmins: false,
  userSelfEnrollmentEnabled: true,
  recoveryCodesEnabled: true,
  requiredRoles: [],
  availableFactors: ['totp', 'recovery_code'],
}) as SvcOrganizationMfaPolicy;

const RECORD_ID = /^[\x21-\x7e]{1,200}$/;

export interface MfaSettingsServiceDeps {
  readonly store: MfaPolicyStore;
  /** True when the organization exists (a policy of an unknown organization is a 404). */
  organizationExists(organizationId: string): Promise<boolean>;
  readonly audit: AuditLog;
  readonly clock: Clock;
}

/**
 * The global MFA settings and the organizations' MFA policies (docs/reference/sign-in.md "Multi-factor authentication" GetMfaSettingsAsync,
 * UpdateMfaSettingsAsync, GetOrganizationMfaPolicyAsync, UpdateOrganizationMfaPolicyAsync). Updates
 * replace the whole record (PUT) with the one the edge parsed and answer what was persisted.
 */
export class MfaSettingsService {
  readonly #deps: MfaSettingsServiceDeps;

  constructor(deps: MfaSettingsServiceDeps) {
    this.#deps = deps;
  }

  async getSettings(): Promise<SvcMfaSettings> {
    return (await this.#deps.store.getSettings()) ?? DEFAULT_MFA_SETTINGS;
  }

  async updateSettings(input: SvcMfaSettings, actor?: AdminActor): Promise<SvcMfaSettings> {
    const settings = normalize(input);
    await this.#deps.store.saveSettings(settings, this.#deps.clock.now());
    await this.#deps.audit.record({
      kind: 'mfa.settings.updated',
      ...actorFields(actor),
      data: { ...settings },
    });
    return this.getSettings();
  }

  async getOrganizationPolicy(organizationId: string): Promise<SvcOrganizationMfaPolicy> {
    await this.#requireOrganization(organizationId);
    return (await this.#deps.store.getOrganizationPolicy(organizationId)) ?? DEFAULT_ORGANIZATION_MFA_POLICY;
  }

  async updateOrganizationPolicy(
    organizationId: string,
    input: SvcOrganizationMfaPolicy,
    actor?: AdminActor,
  ): Promise<SvcOrganizationMfaPolicy> {
    await this.#requireOrganization(organizationId);
    const policy = normalize(input);
    await this.#deps.store.saveOrganizationPolicy(organizationId, policy, this.#deps.clock.now());
    await this.#deps.audit.record({
      kind: 'mfa.organization_policy.updated',
      ...actorFields(actor),
      organizationId,
      data: { ...policy },
    });
    return this.getOrganizationPolicy(organizationId);
  }

  async #requireOrganization(organizationId: string): Promise<void> {
    // Ids Svc issues are printable ASCII: anything else is no organization (and never reaches a query).
    if (!RECORD_ID.test(organizationId) || !(await this.#deps.organizationExists(organizationId))) {
      throw new SvcNotFoundError('No organization has this id.');
    }
  }
}

/**
 * Roles and factors as sets without repeats, so that equal policies store equally: roles sorted, factors
 * in MFA_FACTORS order (the order of the defaults).
 */
function normalize<
  T extends { requiredRoles: string[]; availableFactors: SvcMfaSettings['availableFactors'] },
>(policy: T): T {
  return {
    ...policy,
    requiredRoles: [...new Set(policy.requiredRoles)].sort(),
    availableFactors: MFA_FACTORS.filter((factor) => policy.availableFactors.includes(factor)),
  };
}
