import type { SvcConfig } from '../config/resolve.js';
import { SvcConfigError } from '../kernel/errors.js';

/** How many processes `svc serve` runs, and what the operator should know about that choice. */
export interface WorkerCount {
  readonly count: number;
  /** Said once at start when the count was asked for but is likely to cost more than it gives. */
  readonly warning?: string;
}

/**
 * The number of worker processes of `svc serve`: `--workers`, else SVC_WORKERS, else one per core in
 * production on PostgreSQL and one otherwise. Development stays one process (quick start, one log). On
 * SQLite the default is one worker: every write takes the database's one write lock, and two workers
 * served a write-heavy load more slowly than one (docs/decisions/config-serve-workers.md); a count asked
 * for explicitly still wins, with a warning. An in-memory database lives inside one process, so it
 * cannot have several.
 */
export function workerCount(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  config: Pick<SvcConfig, 'development' | 'database'>,
  cores: number,
): WorkerCount {
  const fromEnv = env.SVC_WORKERS?.trim();
  const asked =
    flag !== undefined
      ? parseCount('--workers', flag)
      : fromEnv === undefined || fromEnv === ''
        ? undefined
        : parseCount('SVC_WORKERS', fromEnv);
  const { database } = config;
  if (asked === undefined) return { count: config.development || database.kind === 'sqlite' ? 1 : cores };
  if (asked > 1 && database.kind === 'sqlite' && database.filename === ':memory:') {
    throw new SvcConfigError(
      'An in-memory SQLite database lives in one process: run one worker, or give the workers a database file or PostgreSQL.',
    );
  }
  if (asked > 1 && database.kind === 'sqlite') {
    return {
      count: asked,
      warning:
        'SQLite takes one write at a time: several workers on one SQLite file serve writes (sign-ins, token refreshes) more slowly than one. Prefer PostgreSQL for several workers.',
    };
  }
  return { count: asked };
}

function parseCount(name: string, value: string): number {
  const text = value.trim();
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw new SvcConfigError(`${name} must be a whole number of workers of at least 1, got "${value}".`);
  }
  return Number(text);
}
