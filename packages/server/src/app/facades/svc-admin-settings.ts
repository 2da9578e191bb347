import {
  organizationMfaPolicyPathSchema,
  securitySettingsUpdateBodySchema,
  svcMfaSettingsSchema,
  svcOrganizationMfaPolicySchema,
  type ResolvedSecuritySettings,
  type SecuritySettingsUpdateBody,
  type SvcMfaSettings,
  type SvcMfaSettingsInput,
  type SvcOrganizationMfaPolicy,
  type SvcOrganizationMfaPolicyInput,
  type SvcSecuritySettings,
} from '@svc/contract';
import { actorFields, type AdminActor } from '../../audit/actor.js';
import type { AuditLog } from '../../audit/audit-log.js';
import { validate } from '../../kernel/validation.js';
import { assertValidSecuritySettings, securitySettingsOf } from '../../settings/security-settings.js';
import type { SecuritySettingsService } from '../../settings/security-settings-service.js';
import type { MfaSettingsService } from '../../signin/methods/mfa/mfa-settings.js';

export interface SvcAdminSettingsDeps {
  readonly securitySettings: SecuritySettingsService;
  /** Global MFA settings and organization MFA policies (audited there). */
  readonly mfaSettings: MfaSettingsService;
  /** Where a change of the security settings is recorded. */
  readonly audit: AuditLog;
}

/**
 * The settings operations of SvcAdminService: the security settings (docs/reference/operator-api.md
 * "Security settings"), the global MFA settings and the organizations' MFA policies
 * (docs/reference/sign-in.md "Multi-factor authentication").
 */
export class SvcAdminSettings {
  readonly #deps: SvcAdminSettingsDeps;

  constructor(deps: SvcAdminSettingsDeps) {
    this.#deps = deps;
  }

  /** GetResolvedSecuritySettingsAsync: the persisted settings plus the spans in milliseconds. */
  getResolvedSecuritySettingsAsync(): Promise<ResolvedSecuritySettings> {
    return this.#deps.securitySettings.getResolved();
  }

  /** The persisted security settings, as GET /settings/security shows them. */
  async getSecuritySettingsAsync(): Promise<SvcSecuritySettings> {
    return { ...(await this.#deps.securitySettings.get()) };
  }

  /**
   * UpdateSecuritySettingsAsync: validates the whole record (ranges; the signing-key grace window must
   * be shorter than the rotation interval), defaults `refreshTokenGraceWindowSeconds` to 30 and returns
   * the persisted settings.
   */
  async updateSecuritySettingsAsync(
    request: SecuritySettingsUpdateBody,
    actor?: AdminActor,
  ): Promise<SvcSecuritySettings> {
    const input = validate(securitySettingsUpdateBodySchema, request, 'security settings');
    assertValidSecuritySettings(securitySettingsOf(input));
    const saved = { ...(await this.#deps.securitySettings.update(input)) };
    await this.#deps.audit.record({
      kind: 'admin.security_settings.updated',
      ...actorFields(actor),
      data: saved,
    });
    return saved;
  }

  /** GetMfaSettingsAsync: the global MFA settings (defaults until an operator saves them). */
  getMfaSettingsAsync(): Promise<SvcMfaSettings> {
    return this.#deps.mfaSettings.getSettings();
  }

  /** UpdateMfaSettingsAsync: replaces the whole record; answers what was persisted. */
  async updateMfaSettingsAsync(request: SvcMfaSettingsInput, actor?: AdminActor): Promise<SvcMfaSettings> {
    const input = validate(svcMfaSettingsSchema, request, 'MFA settings');
    return this.#deps.mfaSettings.updateSettings(input, actor);
  }

  /** GetOrganizationMfaPolicyAsync: 404 for an unknown organization; the defaults until one is saved. */
  async getOrganizationMfaPolicyAsync(organizationId: string): Promise<SvcOrganizationMfaPolicy> {
    return this.#deps.mfaSettings.getOrganizationPolicy(organizationIdOf(organizationId));
  }

  /** UpdateOrganizationMfaPolicyAsync: replaces the organization's policy; answers what was persisted. */
  async updateOrganizationMfaPolicyAsync(
    organizationId: string,
    request: SvcOrganizationMfaPolicyInput,
    actor?: AdminActor,
  ): Promise<SvcOrganizationMfaPolicy> {
    const id = organizationIdOf(organizationId);
    const input = validate(svcOrganizationMfaPolicySchema, request, 'organization MFA policy');
    return this.#deps.mfaSettings.updateOrganizationPolicy(id, input, actor);
  }
}

/** Any string: one that names no organization is the policy's 404 (MfaSettingsService decides). */
function organizationIdOf(organizationId: string): string {
  return validate(organizationMfaPolicyPathSchema, { organizationId }, 'organization id').organizationId;
}
