import type { ResolvedSecuritySettings } from '@svc/contract';
import type { Clock } from '../kernel/clock.js';
import {
  securitySettingsOf,
  type SecuritySettings,
  type SecuritySettingsUpdate,
} from './security-settings.js';
import type { SecuritySettingsRepository } from './repository.js';

export interface SecuritySettingsServiceDeps {
  readonly repository: SecuritySettingsRepository;
  readonly clock: Clock;
  readonly defaults: SecuritySettings;
}

/**
 * How long a node keeps the settings it read. Every grant needs them, so reading the row per request is a
 * query on the hot path; an update made through this node applies at once, one made on another node (they
 * share the database) applies here within this span.
 */
export const SECURITY_SETTINGS_CACHE_MS = 5_000;

interface CachedSettings {
  readonly stored: Readonly<SecuritySettings>;
  readonly resolved: Readonly<ResolvedSecuritySettings>;
  /** Clock reading after which the row is read again. */
  readonly until: number;
}

/** Reads and updates the global security settings; the database is the source of truth across nodes. */
export class SecuritySettingsService {
  readonly #deps: SecuritySettingsServiceDeps;
  #cached: CachedSettings | undefined;
  /** The read in flight, shared by concurrent callers after the cache expired. */
  #reading: Promise<CachedSettings> | undefined;
  /** Bumped by every write, so that a read that started before it is not cached after it. */
  #generation = 0;

  constructor(deps: SecuritySettingsServiceDeps) {
    this.#deps = deps;
  }

  /** Stores the configured defaults on first start; later starts keep what operators saved. */
  async initialize(): Promise<SecuritySettings> {
    this.#invalidate();
    return this.#deps.repository.initialize(this.#deps.defaults, this.#deps.clock.now());
  }

  /** The stored settings (a read-only object shared with other callers). */
  async get(): Promise<SecuritySettings> {
    return (await this.#current()).stored;
  }

  /** The stored settings with their spans in milliseconds (a read-only object shared with other callers). */
  async getResolved(): Promise<ResolvedSecuritySettings> {
    return (await this.#current()).resolved;
  }

  #current(): CachedSettings | Promise<CachedSettings> {
    const cached = this.#cached;
    if (cached !== undefined && this.#deps.clock.now() < cached.until) return cached;
    return (this.#reading ??= this.#read());
  }

  async #read(): Promise<CachedSettings> {
    const generation = this.#generation;
    try {
      const { repository, defaults, clock } = this.#deps;
      const stored = Object.freeze(
        (await repository.get()) ?? (await repository.initialize(defaults, clock.now())),
      );
      const read: CachedSettings = {
        stored,
        resolved: Object.freeze(resolveSpans(stored)),
        until: clock.now() + SECURITY_SETTINGS_CACHE_MS,
      };
      if (generation === this.#generation) this.#cached = read;
      return read;
    } finally {
      if (generation === this.#generation) this.#reading = undefined;
    }
  }

  #invalidate(): void {
    this.#generation += 1;
    this.#cached = undefined;
    this.#reading = undefined;
  }

  /**
   * Stores the whole record and returns what was persisted. The edge has checked it
   * (`assertValidSecuritySettings`: ranges, the grace window shorter than the rotation interval).
   */
  async update(update: SecuritySettingsUpdate): Promise<SecuritySettings> {
    const settings = securitySettingsOf(update);
    this.#invalidate();
    try {
      return await this.#deps.repository.save(settings, this.#deps.clock.now());
    } finally {
      // A read that ran while the row was written may hold the old values: drop it as well.
      this.#invalidate();
    }
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
