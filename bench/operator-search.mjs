// `npm run bench:search -- [--db sqlite|postgres] [--users N]`: the operator console's searches (users by
// email prefix, by name, none matching, an organization's members) on a Svc whose database holds N users
// (default 100,000) in N / 100 organizations, seeded as `--seed-large` seeds (seed-large.mjs). Each
// search's first page is timed one request at a time, as a console asks: the first request and then
// BENCH_SEARCH_REQUESTS more (default 20); the target is under 300 ms
// (docs/reference/testing.md "The benchmark"). The figures go to bench/results/search-<time>.json too.
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { seedTarget } from './lib/growth.mjs';
import { SEARCH_TARGET_MS, timeFirstPages } from './lib/operator.mjs';
import { launchPostgres } from './lib/postgres.mjs';
import { startChild } from './lib/rpc.mjs';

const { values } = parseArgs({
  options: { db: { type: 'string', default: 'sqlite' }, users: { type: 'string', default: '100000' } },
});
const users = Number(values.users);
if (values.db !== 'sqlite' && values.db !== 'postgres')
  throw new Error(`--db: sqlite or postgres, not ${values.db}`);
if (!Number.isSafeInteger(users) || users < 100)
  throw new Error('--users must be a whole number of at least 100');
const requests = Number(process.env.BENCH_SEARCH_REQUESTS ?? 20);
const counts = { users, organizations: Math.floor(users / 100), sessions: 0 };
const progress = (text) => process.stdout.write(`${text}\n`);

const postgres = values.db === 'postgres' ? await launchPostgres() : undefined;
let svc;
try {
  svc = await startChild('svc-search', './svc-server.mjs', {
    env: { NODE_ENV: 'production', BENCH_DATABASE_URL: (await postgres?.createDatabase('svc_search')) ?? '' },
    onNotice: (text) => progress(`seeding: ${text}`),
  });
  const seeded = await seedTarget(svc, counts);
  progress(`seeded ${users.toLocaleString('en')} users in ${Math.round(seeded.seconds)} s; timing …`);
  const rows = await timeFirstPages(svc, { requests });
  const ms = (value) => value.toFixed(1).padStart(7);
  console.log(
    `\nOperator console searches, Svc on ${values.db}: ${users.toLocaleString('en')} users, ` +
      `${counts.organizations.toLocaleString('en')} organizations; first request, then ${requests} more\n`,
  );
  console.log(`${'search'.padEnd(28)} rows   first     p50     p95     max  under ${SEARCH_TARGET_MS} ms`);
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(28)} ${String(row.rows).padStart(4)} ${ms(row.coldMs)} ${ms(row.p50Ms)} ` +
        `${ms(row.p95Ms)} ${ms(row.maxMs)}  ${row.met ? 'yes' : 'NO'}`,
    );
  }
  const resultsDir = new URL('./results/', import.meta.url);
  mkdirSync(resultsDir, { recursive: true });
  const file = new URL(`search-${new Date().toISOString().replaceAll(':', '-')}.json`, resultsDir);
  writeFileSync(file, `${JSON.stringify({ db: values.db, counts, requests, rows }, null, 2)}\n`);
  console.log(`\nwritten to ${file.pathname}`);
} finally {
  await svc?.stop();
  await postgres?.stop();
}
