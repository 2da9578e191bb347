// `npm run bench`: Svc and panva/node-oidc-provider side by side on this machine, each in a child
// process of its own (so that each one's CPU per request is its own), driven by autocannon at 10 and
// 50 connections, runs alternating between the two. In the same run it measures the unit costs a
// request cannot go below (RS256 sign and verify, an argon2id verify, a rotation transaction, the
// HTTP floor), at its start and again at its end, and prints each scenario's ceiling from the cheaper
// of the two measurements of each unit; argon2id, whose cost drifts more within a run than a target's
// margin, is measured again beside each run of password login, and that row's ceiling uses those. With
// `--seed-large` a second Svc on a database of a million users runs the token endpoint, login and the
// operator lists beside the empty one (growth.mjs).
// Options: `npm run bench -- --help`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchOptions } from './lib/args.mjs';
import { discover } from './lib/flows.mjs';
import { growthRunCount, runGrowth, seedTarget } from './lib/growth.mjs';
import { summarize, timedRun } from './lib/loadgen.mjs';
import { runMatrix, runValidation } from './lib/matrix.mjs';
import { cheaperUnits, measureArgon2Unit, measureUnits } from './lib/micro.mjs';
import { launchPostgres } from './lib/postgres.mjs';
import { hottestFunctions } from './lib/profile.mjs';
import { formatGrowth, formatTable, formatUnits, withCeiling } from './lib/report.mjs';
import { startChild } from './lib/rpc.mjs';
import { SCENARIOS } from './lib/scenarios.mjs';

const PEER = 'oidc-provider@9.13.3';
const options = benchOptions();
const startedAt = new Date();
const progress = (text) =>
  process.stdout.isTTY ? process.stdout.write(`\r\x1b[2K${text}`) : process.stdout.write(`${text}\n`);

const children = new Set();
const start = async (...args) => {
  const child = await startChild(...args);
  children.add(child);
  return child;
};
const stop = async (child) => {
  children.delete(child);
  await child.stop();
};
const profileDir = mkdtempSync(join(tmpdir(), 'svc-bench-prof-'));
const postgres = options.db === 'postgres' ? await launchPostgres() : undefined;

try {
  const unitMs = Math.min(3000, options.durationS * 500);
  const unitOptions = {
    durationMs: unitMs,
    argon2Concurrency: 2 * cpus().length,
    db: options.db,
    postgresUrl: postgres?.url,
  };
  progress('unit costs (start): RS256 sign and verify, argon2id verify, rotation transaction …');
  const unitsAtStart = await measureUnits(unitOptions);

  const floorServer = await start('floor', './floor-server.mjs');
  const floors = [];
  for (const connections of options.connections) {
    for (const server of ['node', 'fastify']) {
      progress(`HTTP floor: ${server} at ${connections} connections …`);
      const runs = [];
      for (let i = 0; i < options.runs; i += 1) {
        const load = { url: floorServer.info[server] };
        runs.push(await timedRun(floorServer, load, { connections, durationS: options.durationS }));
      }
      floors.push({ server, connections, ...summarize(runs) });
    }
  }
  await stop(floorServer);

  // The large Svc is seeded before anything is timed: the seeding takes every core for a while.
  let large;
  if (options.seedLarge) {
    progress('starting the Svc to seed (--seed-large) …');
    large = await start('svc-large', './svc-server.mjs', {
      env: { BENCH_DATABASE_URL: (await postgres?.createDatabase('svc_large')) ?? '' },
      onNotice: (text) => progress(`--seed-large: ${text}`),
    });
    const seeded = await seedTarget(large);
    progress(`--seed-large: seeded in ${Math.round(seeded.seconds)} s`);
  }

  progress('starting Svc and the peer …');
  const svc = await start('svc', './svc-server.mjs', {
    env: { BENCH_DATABASE_URL: postgres?.url ?? '' },
    execArgv: options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  unitsAtStart.svcSign = await svc.call('signOps', { durationMs: unitMs });
  const peer = await start('peer', './peer-server.mjs');
  const endpoints = new Map([
    [svc, await discover(svc)],
    [peer, await discover(peer)],
  ]);
  if (large !== undefined) endpoints.set(large, await discover(large));

  const scenarios = SCENARIOS.filter((s) => options.only === null || options.only.has(s.name));
  const validate = options.only === null || options.only.has('validate_access_token');
  const total =
    scenarios.reduce((n, s) => n + (s.svcOnly ? 1 : 2), 0) * options.connections.length * options.runs +
    (validate ? options.connections.length : 0) +
    (large === undefined ? 0 : growthRunCount(options));
  let done = 0;
  const began = performance.now();
  const onStep = (text, runs) => {
    const elapsed = (performance.now() - began) / 1000;
    const left = done === 0 ? '' : `, ~${Math.round((elapsed / done) * (total - done))} s left`;
    progress(`[${Math.min(done + 1, total)}/${total}] ${text} (${Math.round(elapsed)} s${left})`);
    done += runs;
  };
  const beside = {
    argon2: () => measureArgon2Unit(unitMs, unitOptions.argon2Concurrency),
  };
  const rows = await runMatrix({ scenarios, svc, peer, endpoints, options, onStep, beside });
  if (validate) rows.push(...(await runValidation({ svc, options, onStep })));
  const growth =
    large === undefined
      ? []
      : await runGrowth({
          large,
          empty: svc,
          endpoints,
          options,
          onStep,
        });

  progress('unit costs (end): RS256 sign and verify, argon2id verify, rotation transaction …');
  const unitsAtEnd = {
    ...(await measureUnits(unitOptions)),
    svcSign: await svc.call('signOps', { durationMs: unitMs }),
  };
  const units = cheaperUnits(unitsAtStart, unitsAtEnd);
  const floorMicros = (connections) =>
    floors.find((f) => f.server === 'fastify' && f.connections === connections).cpuMicrosPerRequest;
  const table = rows.map((row) => withCeiling(row, units, floorMicros));

  progress('stopping the servers …');
  await stop(peer);
  await stop(svc);
  if (large !== undefined) await stop(large);
  const hotspots = options.cpuProf ? hottestFunctions(profileDir) : [];
  progress('');

  const cpu = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}`;
  const stores = `Svc on ${options.db}, the peer on SQLite`;
  console.log(
    `\nSvc vs ${PEER} (${stores}): medians of ${options.runs} run(s) × ${options.durationS} s; Node ${process.version}, ${cpu}\n`,
  );
  console.log(formatTable(table));
  console.log(
    '\nceiling: the least CPU a request can take (per CPU-second); % of ceiling = that / Svc CPU per request.\n',
  );
  console.log(formatUnits(units, floors, table));
  if (large !== undefined) {
    const { users, organizations, sessions } = large.seeded;
    console.log(
      `\n--seed-large: Svc with ${users.toLocaleString('en')} users, ${organizations.toLocaleString('en')} organizations ` +
        `and ${sessions.toLocaleString('en')} sessions beside the empty Svc, alternating; medians of ${options.runs} run(s)\n`,
    );
    console.log(formatGrowth(growth));
  }
  if (hotspots.length > 0) {
    console.log('\nSvc, hottest functions by self time (--cpu-prof):');
    for (const h of hotspots) console.log(`  ${h.percent.toFixed(1).padStart(5)} %  ${h.fn}  ${h.where}`);
  }

  const resultsDir = new URL('./results/', import.meta.url);
  mkdirSync(resultsDir, { recursive: true });
  const file = new URL(`${startedAt.toISOString().replaceAll(':', '-')}.json`, resultsDir);
  const report = {
    startedAt: startedAt.toISOString(),
    node: process.version,
    cpu,
    peer: PEER,
    stores,
    options: { ...options, only: options.only && [...options.only] },
    units,
    floors,
    rows: table,
    ...(large === undefined ? {} : { seeded: large.seeded, growth }),
    hotspots,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten to ${file.pathname}`);
} finally {
  for (const child of children) await child.stop().catch(() => {});
  await postgres?.stop();
  rmSync(profileDir, { recursive: true, force: true });
}
