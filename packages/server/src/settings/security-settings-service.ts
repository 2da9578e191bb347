import type { Clock } from '../kernel/clock.js';
import { assertValidSecuritySettings, type SecuritySettings } from './security-settings.js';
import type { SecuritySettingsRepository } from './repository.js';

/** The resolved spans of SPEC.md ("RefreshTokenLifetime, SessionIdleTimeout, SessionAbsoluteLifetime"). */
export interface ResolvedSecuritySettings extends SecuritySettings {
  refreshTokenLifetimeMs: number;
  sessionIdleTimeoutMs: number;
  sessionAbsoluteLifetimeMs: number;
}

export type SecuritySettingsUpdate = Omit<SecuritySettings, 'refreshTokenGraceWindowSeconds'> & {
  /** Optional; the default 30 applies when omitted (SPEC.md). */
  refreshTokenGraceWindowSeconds?: number | undefined;
};

export interface SecuritySettingsServiceDeps {
  readonly repository: SecuritySettingsRepository;
  readonly clock: Clock;
  readonly defaults: SecuritySettings;
}

/** Reads and updates the global security settings; the database is the source of truth across nodes. */
export class SecuritySettingsService {
  readonly #deps: SecuritySettingsServiceDeps;

  constructor(deps: SecuritySettingsServiceDeps) {
    this.#deps = deps;
  }

  /** Stores the configured defaults on first start; later starts keep what operators saved. */
  async initialize(): Promise<SecuritySettings> {
    return this.#deps.repository.initialize(this.#deps.defaults, this.#deps.clock.now());
  }

  async get(): Promise<SecuritySettings> {
    return (await this.#deps.repository.get()) ?? (await this.initialize());
  }

  async getResolved(): Promise<ResolvedSecuritySettings> {
    return resolveSpans(await this.get());
  }

  /** Validates the whole record (grace window shorter than rotation interval…) and returns what was persisted. */
  async update(update: SecuritySettingsUpdate): Promise<SecuritySettings> {
    const settings: SecuritySettings = {
      refreshTokenLifetimeMinutes: update.refreshTokenLifetimeMinutes,
      sessionIdleTimeoutMinutes: update.sessionIdleTimeoutMinutes,
      sessionAbsoluteLifetimeMinutes: update.sessionAbsoluteLifetimeMinutes,
      signingKeyRotationIntervalDays: update.signingKeyRotationIntervalDays,
      signingKeyGraceWindowDays: update.signingKeyGraceWindowDays,
      signingKeyRetiredCleanupDays: update.signingKeyRetiredCleanupDays,
      refreshTokenGraceWindowSeconds: update.refreshTokenGraceWindowSeconds ?? 30,
    };
    assertValidSecuritySettings(settings);
    return this.#deps.repository.save(settings, this.#deps.clock.now());
  }
}

export function resolveSpans(settings: SecuritySettings): ResolvedSecuritySettings {
  return {
    ...settings,
    refreshTokenLifetimeMs: settings.refreshTokenLifetimeMinutes * 60_000,
    sessionIdleTimeoutMs: settings.sessionIdleTimeoutMinutes * 60_000,
    sessionAbsoluteLifetimeMs: settings.sessionAbsoluteLifetimeMinutes * 60_000,
  };
}
