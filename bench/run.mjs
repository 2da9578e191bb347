// `npm run bench`: Svc and panva/node-oidc-provider side by side on this machine, each in a child
// process of its own (so that each one's CPU per request is its own), driven by autocannon at 10 and
// 50 connections, runs alternating between the two. They run as operators run them: NODE_ENV=production,
// Svc with its default configuration, the servers pinned to one core and the load generator (this
// process) to another where there are two (placement.mjs); a second Svc with the access log on runs
// discovery beside the first. In the same run it measures the unit costs a
// request cannot go below (RS256 sign and verify, an argon2id verify, a rotation transaction, the
// HTTP floor), at its start and again at its end, and prints each scenario's ceiling from the cheaper
// of the two measurements of each unit; argon2id, whose cost drifts more within a run than a target's
// margin, is measured again beside each run of password login, and that row's ceiling uses those. With
// `--seed-large` a second Svc on a database of a million users runs the token endpoint, login and the
// operator lists beside the empty one (growth.mjs).
// Options: `npm run bench -- --help`.
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchOptions } from './lib/args.mjs';
import { discover } from './lib/flows.mjs';
import { growthRunCount, runGrowth, seedTarget } from './lib/growth.mjs';
import { summarize, timedRun } from './lib/loadgen.mjs';
import { runFgaChecks, runMatrix, runValidation } from './lib/matrix.mjs';
import { cheaperUnits, measureArgon2Unit, measureUnits } from './lib/micro.mjs';
import { placeProcesses } from './lib/placement.mjs';
import { launchPostgres } from './lib/postgres.mjs';
import { hottestFunctions } from './lib/profile.mjs';
import { formatGrowth, formatTable, formatUnits, formatWorkers, withCeiling } from './lib/report.mjs';
import { startChild } from './lib/rpc.mjs';
import { SCENARIOS } from './lib/scenarios.mjs';
import { benchWorkers, wantsWorkers, workersRunCount } from './lib/workers.mjs';

const PEER = 'oidc-provider@9.13.3';
const options = benchOptions();
const startedAt = new Date();
const progress = (text) =>
  process.stdout.isTTY ? process.stdout.write(`\r\x1b[2K${text}`) : process.stdout.write(`${text}\n`);

const children = new Set();
const profileDir = mkdtempSync(join(tmpdir(), 'svc-bench-prof-'));
const logDir = mkdtempSync(join(tmpdir(), 'svc-bench-log-'));
// PostgreSQL starts before this process is pinned: it keeps every core, as a database server of its own.
const postgres = options.db === 'postgres' ? await launchPostgres() : undefined;
const placement = placeProcesses({ enabled: options.pin });
/** A server child, in production mode, pinned to the servers' core. */
const start = async (name, file, childOptions = {}) => {
  const child = await startChild(name, file, {
    ...childOptions,
    env: { NODE_ENV: 'production', ...childOptions.env },
  });
  children.add(child);
  placement.server(child.pid);
  return child;
};
const stop = async (child) => {
  children.delete(child);
  await child.stop();
};
let accessLogFd;

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
    placement.everywhere(large.pid);
    const seeded = await seedTarget(large);
    placement.server(large.pid);
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
  // The access log's lines go to a file, as a production server's standard output goes to a collector.
  const accessLogFile = join(logDir, 'access.log');
  const others = {};
  if (scenarios.some((s) => s.on === 'svcAccessLog')) {
    progress('starting the Svc with the access log on …');
    accessLogFd = openSync(accessLogFile, 'w');
    others.svcAccessLog = await start('svc-access-log', './svc-server.mjs', {
      env: {
        BENCH_DATABASE_URL: (await postgres?.createDatabase('svc_access_log')) ?? '',
        BENCH_ACCESS_LOG: '1',
      },
      stdout: accessLogFd,
    });
    endpoints.set(others.svcAccessLog, await discover(others.svcAccessLog));
  }
  const validate = options.only === null || options.only.has('validate_access_token');
  const fga = options.only === null || options.only.has('fga_check');
  const total =
    scenarios.reduce((n, s) => n + (s.svcOnly ? 1 : 2), 0) * options.connections.length * options.runs +
    (validate ? options.connections.length : 0) +
    (fga ? options.connections.length : 0) +
    (large === undefined ? 0 : growthRunCount(options)) +
    (wantsWorkers(options) ? workersRunCount(options) : 0);
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
  const rows = await runMatrix({ scenarios, svc, peer, others, endpoints, options, onStep, beside });
  if (validate) rows.push(...(await runValidation({ svc, options, onStep })));
  if (fga) rows.push(...(await runFgaChecks({ svc, options, onStep })));
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
  const workers = wantsWorkers(options)
    ? await benchWorkers({
        startChild: start,
        stopChild: stop,
        track: (server) => children.add(server),
        pin: placement.server,
        postgres,
        options,
        onStep,
      })
    : [];

  progress('unit costs (end): RS256 sign and verify, argon2id verify, rotation transaction …');
  const unitsAtEnd = {
    ...(await measureUnits(unitOptions)),
    svcSign: await svc.call('signOps', { durationMs: unitMs }),
  };
  const units = cheaperUnits(unitsAtStart, unitsAtEnd);
  const floorMicros = (server, connections) =>
    floors.find((f) => f.server === server && f.connections === connections).cpuMicrosPerRequest;
  const table = rows.map((row) => withCeiling(row, units, floorMicros));

  progress('stopping the servers …');
  await stop(peer);
  await stop(svc);
  if (large !== undefined) await stop(large);
  if (others.svcAccessLog !== undefined) await stop(others.svcAccessLog);
  const accessLogged = others.svcAccessLog === undefined ? undefined : accessLogSize(accessLogFile);
  const hotspots = options.cpuProf ? hottestFunctions(profileDir) : [];
  progress('');

  const cpu = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}`;
  const stores = `Svc on ${options.db}, the peer on SQLite`;
  console.log(
    `\nSvc vs ${PEER} (${stores}): medians of ${options.runs} run(s) × ${options.durationS} s; Node ${process.version}, ${cpu}`,
  );
  console.log(`NODE_ENV=production, Svc's default configuration; ${placement.note}\n`);
  if (table.length > 0) console.log(formatTable(table));
  if (accessLogged !== undefined) {
    console.log(
      `\naccess log: ${(accessLogged.bytes / 1e6).toFixed(0)} MB written to a file, ` +
        `about ${accessLogged.bytesPerLine} bytes a line`,
    );
  }
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
  if (workers.length > 0) {
    console.log(
      `\nsvc serve --workers 1 and 2 on one database (Svc on ${options.db}), alternating; medians of ${options.runs} run(s); ` +
        'CPU of every process of each (primary and workers)\n',
    );
    console.log(formatWorkers(workers));
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
    placement: placement.note,
    options: { ...options, only: options.only && [...options.only] },
    ...(accessLogged === undefined ? {} : { accessLogged }),
    units,
    floors,
    rows: table,
    ...(large === undefined ? {} : { seeded: large.seeded, growth }),
    ...(workers.length === 0 ? {} : { workers }),
    hotspots,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten to ${file.pathname}`);
} finally {
  for (const child of children) await child.stop().catch(() => {});
  if (accessLogFd !== undefined) closeSync(accessLogFd);
  await postgres?.stop();
  rmSync(profileDir, { recursive: true, force: true });
  rmSync(logDir, { recursive: true, force: true });
}

/** The access log's size, and its lines' average size from its first 64 KiB (it runs to gigabytes). */
function accessLogSize(file) {
  const head = Buffer.alloc(64 * 1024);
  const fd = openSync(file, 'r');
  const read = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const text = head.subarray(0, read).toString();
  const lines = text.split('\n').length - 1;
  return {
    bytes: statSync(file).size,
    bytesPerLine: lines === 0 ? null : Math.round((text.lastIndexOf('\n') + 1) / lines),
  };
}
