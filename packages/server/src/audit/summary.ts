import type {
  AuditSummary,
  AuditSummaryCategory,
  AuditSummaryCounts,
  AuditSummaryQuery,
} from '@svc/contract';
import { toIso, type Clock } from '../kernel/clock.js';
import { kindMatches, parseKindFilter } from './audit-service.js';
import type { AuditKindMatch, AuditRepository } from './repository.js';
import { AUDIT_SUMMARY_KINDS } from './summary-kinds.js';

/** How many token sessions were usable at each instant (created, not revoked, before both deadlines). */
export interface ActiveSessionCount {
  countUsableAt(instants: readonly number[]): Promise<number[]>;
}

/** The overview of the audit API. */
export interface AuditSummarizer {
  summarize(query: AuditSummaryQuery): Promise<AuditSummary>;
}

export interface AuditSummaryDeps {
  readonly repository: Pick<AuditRepository, 'countByBucket'>;
  readonly sessions: ActiveSessionCount;
  readonly clock: Clock;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const WINDOWS = {
  '24h': { bucket: 'hour', bucketMs: HOUR_MS, buckets: 24 },
  '7d': { bucket: 'day', bucketMs: DAY_MS, buckets: 7 },
} as const;

const CATEGORIES = Object.keys(AUDIT_SUMMARY_KINDS) as AuditSummaryCategory[];
const MATCHES = CATEGORIES.map(
  (category) => [category, parseKindFilter(AUDIT_SUMMARY_KINDS[category])] as const,
);
const EVERY_KIND: AuditKindMatch = {
  exact: MATCHES.flatMap(([, match]) => match.exact),
  prefixes: MATCHES.flatMap(([, match]) => match.prefixes),
};

const zero = (): AuditSummaryCounts => ({ signIns: 0, failedSignIns: 0, throttled: 0, newUsers: 0 });

/**
 * The console's overview (`GET /events/summary`): the window's whole UTC hours or days, oldest first,
 * the last one holding now, each counting the events of AUDIT_SUMMARY_KINDS' categories and the token
 * sessions usable at its end (the last one's: now). The database groups the events (one query, by
 * bucket and kind; this only sorts the kinds into categories) and counts the sessions (one query).
 */
export function createAuditSummary(deps: AuditSummaryDeps): AuditSummarizer {
  return { summarize: (query) => summarize(deps, query) };
}

async function summarize(deps: AuditSummaryDeps, query: AuditSummaryQuery): Promise<AuditSummary> {
  const window = WINDOWS[query.window];
  const now = deps.clock.now();
  const to = (Math.floor(now / window.bucketMs) + 1) * window.bucketMs;
  const from = to - window.buckets * window.bucketMs;
  const counts = Array.from({ length: window.buckets }, zero);
  const totals = zero();
  const rows = await deps.repository.countByBucket(EVERY_KIND, { from, to, bucketMs: window.bucketMs });
  for (const row of rows) {
    const bucket = counts[row.bucket];
    const category = MATCHES.find(([, match]) => kindMatches(match, row.kind))?.[0];
    if (bucket === undefined || category === undefined) continue;
    bucket[category] += row.count;
    totals[category] += row.count;
  }
  const ends = counts.map((_, i) => Math.min(from + (i + 1) * window.bucketMs, now));
  const sessions = await deps.sessions.countUsableAt(ends);
  return {
    window: query.window,
    bucket: window.bucket,
    from: toIso(from),
    to: toIso(to),
    buckets: counts.map((bucket, i) => ({
      start: toIso(from + i * window.bucketMs),
      ...bucket,
      activeSessions: sessions[i] ?? 0,
    })),
    totals,
    kinds: { ...AUDIT_SUMMARY_KINDS },
    activeSessions: sessions.at(-1) ?? 0,
  };
}
