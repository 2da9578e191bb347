import type { SecuritySettings } from './security-settings.js';

export type { SecuritySettings };

/** Storage of the one global security-settings record. */
export interface SecuritySettingsRepository {
  get(): Promise<SecuritySettings | undefined>;
  /** Inserts the record unless one exists (first start); returns the stored record. */
  initialize(settings: SecuritySettings, now: number): Promise<SecuritySettings>;
  save(settings: SecuritySettings, now: number): Promise<SecuritySettings>;
}
