import { SECURITY_SETTINGS_BOUNDS } from '@svc/contract';
import { SvcValidationError, type ValidationIssue } from '../kernel/errors.js';

/**
 * The persisted security settings (docs/reference/tokens-and-sessions.md; bounds in
 * docs/reference/operator-api.md "Security settings"); spans in the units of their names.
 */
export interface SecuritySettings {
  refreshTokenLifetimeMinutes: number;
  sessionIdleTimeoutMinutes: number;
  sessionAbsoluteLifetimeMinutes: number;
  signingKeyRotationIntervalDays: number;
  signingKeyGraceWindowDays: number;
  signingKeyRetiredCleanupDays: number;
  refreshTokenGraceWindowSeconds: number;
}

/**
 * The defaults (docs/reference/tokens-and-sessions.md): 30 days / 14 days / 90 days; keys 90 / 7 / 30 days;
 * replay grace 30 s.
 */
export const DEFAULT_SECURITY_SETTINGS: Readonly<SecuritySettings> = Object.freeze({
  refreshTokenLifetimeMinutes: 30 * 24 * 60,
  sessionIdleTimeoutMinutes: 14 * 24 * 60,
  sessionAbsoluteLifetimeMinutes: 90 * 24 * 60,
  signingKeyRotationIntervalDays: 90,
  signingKeyGraceWindowDays: 7,
  signingKeyRetiredCleanupDays: 30,
  refreshTokenGraceWindowSeconds: 30,
});

/** Rules every stored settings record obeys; the issues name the field so that the caller can fix it. */
export function securitySettingsIssues(settings: SecuritySettings): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [field, [min, max]] of Object.entries(SECURITY_SETTINGS_BOUNDS) as [
    keyof SecuritySettings,
    readonly [number, number],
  ][]) {
    const value = settings[field];
    if (!Number.isInteger(value) || value < min || value > max) {
      issues.push({ path: field, message: `${field} must be an integer from ${min} to ${max}.` });
    }
  }
  // docs/reference/operator-api.md "Security settings": the grace window must be shorter than the rotation
  // interval.
  if (settings.signingKeyGraceWindowDays >= settings.signingKeyRotationIntervalDays) {
    issues.push({
      path: 'signingKeyGraceWindowDays',
      message: 'signingKeyGraceWindowDays must be shorter than signingKeyRotationIntervalDays.',
    });
  }
  return issues;
}

export type SecuritySettingsUpdate = Omit<SecuritySettings, 'refreshTokenGraceWindowSeconds'> & {
  /** Optional; the default 30 applies when omitted (docs/reference/operator-api.md "Security settings"). */
  refreshTokenGraceWindowSeconds?: number | undefined;
};

/** What an update stores: the record as given, the grace window 30 s when omitted. */
export function securitySettingsOf(update: SecuritySettingsUpdate): SecuritySettings {
  return {
    refreshTokenLifetimeMinutes: update.refreshTokenLifetimeMinutes,
    sessionIdleTimeoutMinutes: update.sessionIdleTimeoutMinutes,
    sessionAbsoluteLifetimeMinutes: update.sessionAbsoluteLifetimeMinutes,
    signingKeyRotationIntervalDays: update.signingKeyRotationIntervalDays,
    signingKeyGraceWindowDays: update.signingKeyGraceWindowDays,
    signingKeyRetiredCleanupDays: update.signingKeyRetiredCleanupDays,
    refreshTokenGraceWindowSeconds: update.refreshTokenGraceWindowSeconds ?? 30,
  };
}

/** The edges' check of an update (the facade's, which the operator route calls): 400 naming each field. */
export function assertValidSecuritySettings(settings: SecuritySettings): void {
  const issues = securitySettingsIssues(settings);
  if (issues.length > 0) {
    throw new SvcValidationError(issues.map((issue) => issue.message).join(' '), issues);
  }
}
