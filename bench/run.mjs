// `npm run bench`: starts Svc on a fresh SQLite database in a temp folder and measures its read-only
// OAuth endpoints with autocannon (10 and 50 connections). Results go to stdout and bench/results/.
// The side-by-side comparison with a peer server and the token-endpoint scenarios join as those
// endpoints land.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createSvc } from '@svc/server';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const svc = await createSvc(
  {
    databaseUrl: `sqlite:${join(dataDir, 'svc.db')}`,
    dataDir,
    port: 0,
    logLevel: false,
    keyRotationSchedule: false,
  },
  { env: {} },
);
const address = await svc.listen();
const base = `${address}${svc.config.authBase}`;
const scenarios = [
  { name: 'discovery', url: `${base}/.well-known/openid-configuration` },
  { name: 'jwks', url: `${base}/.well-known/jwks.json` },
];

const results = [];
try {
  for (const scenario of scenarios) {
    for (const connections of [10, 50]) {
      process.stdout.write(`running ${scenario.name} at ${connections} connections for ${DURATION_S}s …\n`);
      const run = await autocannon({ url: scenario.url, connections, duration: DURATION_S });
      if (run.non2xx > 0 || run.errors > 0)
        throw new Error(`${scenario.name}: ${run.non2xx} non-2xx, ${run.errors} errors`);
      results.push({
        scenario: scenario.name,
        connections,
        requestsPerSecond: run.requests.average,
        p50Ms: run.latency.p50,
        p99Ms: run.latency.p99,
      });
    }
  }
} finally {
  await svc.close();
  rmSync(dataDir, { recursive: true, force: true });
}

console.table(results);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
const file = new URL(`./results/${new Date().toISOString().replaceAll(':', '-')}.json`, import.meta.url);
writeFileSync(
  file,
  `${JSON.stringify({ node: process.version, durationSeconds: DURATION_S, results }, null, 2)}\n`,
);
console.log(`written to ${file.pathname}`);
