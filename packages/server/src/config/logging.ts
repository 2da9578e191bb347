import { SvcConfigError } from '../kernel/errors.js';
import { positiveMs } from './durations.js';
import type { LogStream, SvcOptions } from './options.js';

/** What the standalone server logs, and where (SvcOptions logLevel, accessLog, slowRequestMs, logStream). */
export interface LoggingConfig {
  readonly logLevel: NonNullable<SvcOptions['logLevel']>;
  /** One `request completed` line at info per request. */
  readonly accessLog: boolean;
  /** A request that takes at least this long is logged at warn, access log or not. */
  readonly slowRequestMs: number;
  /** Where log lines go; undefined: standard output. */
  readonly logStream: LogStream | undefined;
}

export const DEFAULT_SLOW_REQUEST_MS = 1000;

/** Levels at which the access log's info lines are written. */
const ACCESS_LOG_LEVELS: readonly LoggingConfig['logLevel'][] = ['info', 'debug', 'trace'];

/**
 * The access log writes at info: asking for it makes info the default level (development's default is
 * warn), and an explicit level that would swallow its lines is refused rather than silently ignored.
 */
export function resolveLogging(options: SvcOptions, development: boolean): LoggingConfig {
  const accessLog = options.accessLog ?? false;
  const logLevel = options.logLevel ?? (development && !accessLog ? 'warn' : 'info');
  if (accessLog && !ACCESS_LOG_LEVELS.includes(logLevel)) {
    throw new SvcConfigError(
      `SVC_ACCESS_LOG writes its lines at info, which SVC_LOG_LEVEL=${logLevel === false ? 'off' : logLevel} hides: ` +
        'set SVC_LOG_LEVEL to info, debug or trace (or leave it unset), or turn the access log off.',
    );
  }
  return {
    logLevel,
    accessLog,
    slowRequestMs: positiveMs('slowRequestMs', options.slowRequestMs ?? DEFAULT_SLOW_REQUEST_MS),
    logStream: options.logStream,
  };
}
