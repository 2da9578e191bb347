import type {
  ResolvedSecuritySettings,
  SecuritySettingsUpdateBody,
  SvcSecuritySettings,
} from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import type { SvcAdminSettings } from './svc-admin-settings.js';

/**
 * The security settings on SvcAuthService (docs/reference/operator-api.md "Security settings"):
 * the same operations as the operator API's, validated and audited there.
 */
export class SvcAuthSecuritySettings {
  readonly #settings: Pick<
    SvcAdminSettings,
    'getResolvedSecuritySettingsAsync' | 'updateSecuritySettingsAsync'
  >;

  constructor(
    settings: Pick<SvcAdminSettings, 'getResolvedSecuritySettingsAsync' | 'updateSecuritySettingsAsync'>,
  ) {
    this.#settings = settings;
  }

  /** GetResolvedSecuritySettingsAsync: the persisted settings plus the spans in milliseconds. */
  getResolvedSecuritySettingsAsync(): Promise<ResolvedSecuritySettings> {
    return this.#settings.getResolvedSecuritySettingsAsync();
  }

  /** UpdateSecuritySettingsAsync: validated, audited, and returns the persisted settings. */
  updateSecuritySettingsAsync(
    request: SecuritySettingsUpdateBody,
    actor?: AdminActor,
  ): Promise<SvcSecuritySettings> {
    return this.#settings.updateSecuritySettingsAsync(request, actor);
  }
}
