/** What a readiness probe of the database finds when the database answers. */
export interface DatabaseState {
  /** Every migration this node knows is applied (a newer node may have applied more). */
  readonly migrationsCurrent: boolean;
}

export interface ReadinessDeps {
  /** Reads the database's state; throws when the database does not answer. */
  readonly probe: () => Promise<DatabaseState>;
  /** How long the database may take to answer before the node is reported not ready. */
  readonly timeoutMs: number;
}

export type Readiness =
  | { readonly ready: true }
  | {
      readonly ready: false;
      readonly reason: 'database_unavailable' | 'database_timeout' | 'migrations_pending';
      readonly message: string;
    };

const MESSAGES = {
  database_unavailable: 'The database does not answer.',
  database_timeout: 'The database did not answer in time.',
  migrations_pending: 'The database lacks migrations this node needs; run `svc migrate`.',
} as const;

/**
 * Whether this node can serve requests that need the database, for a load balancer's health check: the
 * database answers within the timeout and its migrations are current. A node that is not ready still
 * serves what it can (cached JWKS and discovery), so liveness is a separate question.
 */
export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), deps.timeoutMs);
  });
  try {
    const state = await Promise.race([deps.probe(), timedOut]);
    if (state === 'timeout') return notReady('database_timeout');
    return state.migrationsCurrent ? { ready: true } : notReady('migrations_pending');
  } catch {
    return notReady('database_unavailable');
  } finally {
    clearTimeout(timer);
  }
}

function notReady(reason: keyof typeof MESSAGES): Readiness {
  return { ready: false, reason, message: MESSAGES[reason] };
}
