// The operator list scenarios of `npm run bench -- --seed-large` (Svc only): the first page of users and
// of organizations, and a page of users far down the keyset (reached by following nextCursor), each with
// `limit=50` and the operator token. The target is p95 < 50 ms with the large seed. And the console's
// searches of `npm run bench:search` (operator-search.mjs): the time to their first page.
import { percentile } from './loadgen.mjs';

/** How many pages the deep-page scenario walks before it times its page (page 201: rows 10,001-10,050). */
const DEEP_PAGES = 200;

/** Operators are few: one dashboard (1 connection) and a busy team (10). */
export const OPERATOR_CONNECTIONS = [1, 10];

const auth = (target) => ({ authorization: `Bearer ${target.info.adminToken}` });

/** GETs a list page of the operator API (throws on anything but 200). */
async function listPage(target, path) {
  const response = await fetch(`${target.info.adminApi}${path}`, { headers: auth(target) });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

const list = (name, path) => ({
  name,
  cost: {},
  prepare: async (target) => {
    await listPage(target, path);
    return {};
  },
  load: ({ target }) => ({ url: `${target.info.adminApi}${path}`, headers: auth(target) }),
});

export const OPERATOR_SCENARIOS = [
  list('users_list', '/users?limit=50'),
  list('organizations_list', '/organizations?limit=50'),
  {
    name: 'users_deep_page',
    cost: {},
    // Follows nextCursor DEEP_PAGES times (or to the last page of a smaller database).
    prepare: async (target) => {
      let path = '/users?limit=50';
      for (let page = 0; page < DEEP_PAGES; page += 1) {
        const { nextCursor } = await listPage(target, path);
        if (nextCursor === null || nextCursor === undefined) break;
        path = `/users?limit=50&cursor=${encodeURIComponent(nextCursor)}`;
      }
      return { path };
    },
    load: ({ target, state }) => ({ url: `${target.info.adminApi}${state.path}`, headers: auth(target) }),
  },
];

/** The console searches' target: the first page within 300 ms. */
export const SEARCH_TARGET_MS = 300;

/**
 * The operator console's searches on a database seeded by seed-large.mjs (`bench-user-<i>`, `Bench User
 * <i>`, user i a member of organization i % organizations), each a first page of 50:
 *
 * - by email prefix: user 4242 and its ten-times descendants, so few that the whole table is read;
 * - by name: `User 777` matches hundreds, so the page fills part-way down the table;
 * - a search that matches nothing: the whole table, the worst case;
 * - the members of one organization (the organization filter), and a search among them.
 */
export const OPERATOR_SEARCHES = [
  { name: 'users_email_prefix', path: () => '/users?limit=50&query=bench-user-4242' },
  { name: 'users_name', path: () => `/users?limit=50&query=${encodeURIComponent('User 777')}` },
  { name: 'users_no_match', path: () => '/users?limit=50&query=nobody' },
  { name: 'users_organization', path: () => '/users?limit=50&organizationId=org_bench00000042' },
  {
    name: 'organization_members_search',
    path: () => '/organizations/org_bench00000042/memberships?limit=50&query=user',
  },
];

/**
 * Times each search's first page, one request at a time as a console asks: its first request (the
 * server already warm), then `requests` more. Resolves to rows `{ name, path, rows, coldMs, p50Ms, p95Ms, maxMs, met }`.
 */
export async function timeFirstPages(target, { requests = 20 } = {}) {
  // The server's first operator request pays for its own warm-up (code compiled, statements prepared).
  await listPage(target, '/users?limit=1');
  const results = [];
  for (const search of OPERATOR_SEARCHES) {
    const path = search.path();
    const once = async () => {
      const started = performance.now();
      const page = await listPage(target, path);
      return { ms: performance.now() - started, rows: page.data.length };
    };
    const cold = await once();
    const times = [];
    for (let i = 0; i < requests; i += 1) times.push((await once()).ms);
    const p95Ms = percentile(times, 95);
    results.push({
      name: search.name,
      path,
      rows: cold.rows,
      coldMs: cold.ms,
      p50Ms: percentile(times, 50),
      p95Ms,
      maxMs: Math.max(...times),
      met: cold.ms < SEARCH_TARGET_MS && p95Ms < SEARCH_TARGET_MS,
    });
  }
  return results;
}
