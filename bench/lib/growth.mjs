// `--seed-large`: a second Svc child whose database holds 1,000,000 users, 10,000 organizations and
// 500,000 sessions (seed-large.mjs) runs the token-endpoint scenarios, password login (of seeded users)
// and the operator lists, alternating with the empty-database Svc of the same run (large, empty,
// large …) so that drift on the machine hits both alike. Each row says whether the large figures are
// within 10 % of the empty ones (token endpoint, login: req/s, and CPU per request, which a busy machine
// disturbs less) or answer p95 < 50 ms (operator lists).
import { runMatrix } from './matrix.mjs';
import { OPERATOR_CONNECTIONS, OPERATOR_SCENARIOS } from './operator.mjs';
import { SCENARIOS } from './scenarios.mjs';

/** The scenarios whose cost must not grow with data (issue 7). */
const GROWTH_SCENARIOS = new Set([
  'client_credentials',
  'refresh_token',
  'authorization_code',
  'password_login',
]);

/** The operator lists' p95 target, in ms. */
export const OPERATOR_P95_TARGET_MS = 50;

/** Every scenario name `--seed-large` may run (for `--only`). */
export const GROWTH_SCENARIO_NAMES = [...GROWTH_SCENARIOS, ...OPERATOR_SCENARIOS.map((s) => s.name)];

/**
 * Fills `target`'s database (progress through its notices; `counts` as in seed-large.mjs, default the
 * large seed) and marks it seeded for the scenarios.
 */
export async function seedTarget(target, counts) {
  target.seeded = await target.call('seedLarge', counts === undefined ? {} : { counts });
  return target.seeded;
}

/** The empty database's twin of a seeded user: one user with one membership, so that both sign in alike. */
const ONE_SEEDED_USER = Object.freeze({ users: 1, organizations: 1, sessions: 0 });

/**
 * Runs the growth scenarios on `large` and `empty` (two Svc children) and resolves to rows
 * `{ scenario, connections, kind, empty, large, ratio, cpuRatio, met }` (`met`: for
 * throughput rows `{ requestsPerSecond, cpu }`, each true when within 10 %; for latency rows the p95 check) (or `{ …, error }`).
 */
export async function runGrowth({ large, empty, endpoints, options, onStep }) {
  // Seeded users belong to an organization and the bench user does not: password login on the empty
  // Svc signs in a seeded user of its own (added after its main-table runs) so that both take one path.
  await seedTarget(empty, ONE_SEEDED_USER);
  const wanted = (s) => options.only === null || options.only.has(s.name);
  const both = (s) => ({ ...s, svcOnly: false });
  const common = { svc: large, peer: empty, endpoints, onStep };
  const tokenRows = await runMatrix({
    ...common,
    scenarios: SCENARIOS.filter((s) => GROWTH_SCENARIOS.has(s.name) && wanted(s)).map(both),
    options,
  });
  const operatorRows = await runMatrix({
    ...common,
    scenarios: OPERATOR_SCENARIOS.filter(wanted).map(both),
    options: { ...options, connections: OPERATOR_CONNECTIONS },
  });
  return [
    ...tokenRows.map((row) => growthRow(row, 'throughput')),
    ...operatorRows.map((row) => growthRow(row, 'latency')),
  ];
}

/** How many growth runs a matrix of these options makes (for the progress line). */
export function growthRunCount(options) {
  const wanted = (name) => options.only === null || options.only.has(name);
  const token = [...GROWTH_SCENARIOS].filter(wanted).length * options.connections.length;
  const operator = OPERATOR_SCENARIOS.filter((s) => wanted(s.name)).length * OPERATOR_CONNECTIONS.length;
  return (token + operator) * options.runs * 2;
}

function growthRow(row, kind) {
  if (row.error !== undefined) return { ...row, kind };
  const { svc: large, peer: empty } = row;
  const ratio = large.requestsPerSecond / empty.requestsPerSecond;
  const cpuRatio = large.cpuMicrosPerRequest / empty.cpuMicrosPerRequest;
  return {
    scenario: row.scenario,
    connections: row.connections,
    kind,
    empty,
    large,
    ratio,
    cpuRatio,
    met:
      kind === 'throughput'
        ? { requestsPerSecond: ratio >= 0.9, cpu: cpuRatio <= 1.1 }
        : large.p95Ms < OPERATOR_P95_TARGET_MS,
  };
}
