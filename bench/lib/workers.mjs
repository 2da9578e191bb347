// The `workers` row of `npm run bench`: `svc serve --workers 1` and `svc serve --workers 2` (the built
// CLI, NODE_ENV=production, default configuration) on one database, alternating (one, two, one …) on the
// token endpoint, and what each spends per request. A server here is a tree of processes (with 2 workers
// the primary, which takes the connections and hands them over, and its workers), so its CPU is read from
// Linux's /proc for every process of the tree, every thread included. The row is met when 2 workers serve
// at least 90 % of the requests per CPU-second of 1 (the same allowance for drift as the --seed-large rows):
// several workers must not make a request cost more. The database is seeded once by a bench Svc child
// (svc-server.mjs), which then stops and leaves it to the two servers.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discover } from './flows.mjs';
import { runMatrix } from './matrix.mjs';
import { freePort } from './rpc.mjs';
import { SCENARIOS } from './scenarios.mjs';

/** The name of the row for `--only`. */
export const WORKERS_ROW = 'workers';

/** A grant that only signs, and one that also writes (rotation), where SQLite's one writer would show. */
const WORKER_SCENARIOS = new Set(['client_credentials', 'refresh_token']);

/** Worker counts compared: `[baseline, more]`. */
const WORKER_COUNTS = [1, 2];

/** 2 workers' requests per CPU-second as a share of 1 worker's, at least. */
export const WORKERS_TARGET = 0.9;

const CLI = fileURLToPath(new URL('../../packages/server/dist/cli/main.js', import.meta.url));
const READY = 'Press Ctrl+C to stop.';

/** Clock ticks per second of /proc's CPU times. */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** /proc/<pid>/stat's fields after the command name (which may hold spaces and parentheses). */
function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** `pid` and every live process descending from it. */
export function processTree(pid) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), Number(statFields(entry)[1]));
    } catch {
      // the process ended while the list was read
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

/**
 * The user and system CPU of a process tree in µs, as process.cpuUsage() counts one process: utime and
 * stime (fields 14 and 15) of each process, all its threads included.
 */
export function treeCpu(pid) {
  let user = 0;
  let system = 0;
  for (const member of processTree(pid)) {
    try {
      const fields = statFields(member);
      user += Number(fields[11]);
      system += Number(fields[12]);
    } catch {
      // the process ended between the two reads
    }
  }
  return { user: (user * 1e6) / TICKS, system: (system * 1e6) / TICKS };
}

/**
 * Starts `svc serve --workers <count>` on the seeded database; resolves, once it listens, to a target
 * as the scenarios take it (`name`, `info` with this server's URLs, `call('cpu')` of the whole tree,
 * `stop()`), with `pids()` its processes (for pinning).
 */
export async function startWorkers({ count, seed, env }) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [CLI, 'serve', '--workers', String(count)], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      ...env,
      SVC_HOST: '127.0.0.1',
      SVC_PORT: String(port),
      SVC_PUBLIC_ORIGIN: origin,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve, reject) => {
    const collect = (chunk) => {
      output += chunk;
      if (output.includes(READY)) resolve();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    exited.then((code) => reject(new Error(`svc serve --workers ${count} exited (${code}): ${output}`)));
  });
  const moved = (url) => url.replace(seed.origin, origin);
  return {
    name: `${count} worker${count === 1 ? '' : 's'}`,
    pid: child.pid,
    info: { base: moved(seed.base), origin, issuer: moved(seed.issuer), ccSecret: seed.ccSecret },
    pids: () => processTree(child.pid),
    call: async (method) => {
      if (method !== 'cpu') throw new Error(`svc serve answers no ${method}`);
      return treeCpu(child.pid);
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Whether this run measures the workers row. */
export const wantsWorkers = (options) => options.only === null || options.only.has(WORKERS_ROW);

/** How many timed runs the workers row makes (for the progress line). */
export const workersRunCount = (options) =>
  WORKER_SCENARIOS.size * options.connections.length * options.runs * WORKER_COUNTS.length;

/**
 * The whole row: seeds a database (SQLite in a temp folder, or a database of `postgres`) with a bench Svc
 * child started by `startChild(name, file, options)` and stopped by `stopChild`, starts 1 and 2 workers
 * on it (each process pinned with `pin(pid)`, as the other servers are; `track(target)` lets the caller
 * stop them if the run fails), runs them and stops them. Resolves to runWorkers's rows.
 */
export async function benchWorkers({ startChild, stopChild, track, pin, postgres, options, onStep }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-workers-'));
  const servers = [];
  try {
    const databaseUrl =
      (await postgres?.createDatabase('svc_workers')) ?? `sqlite:${join(dataDir, 'svc.db')}`;
    const secretKey = randomBytes(32).toString('hex');
    onStep('workers: seeding their database', 0);
    const seeder = await startChild('svc-workers-seed', './svc-server.mjs', {
      env: {
        BENCH_DATABASE_URL: postgres === undefined ? '' : databaseUrl,
        BENCH_DATA_DIR: dataDir,
        BENCH_SECRET_KEY: secretKey,
      },
    });
    const seed = seeder.info;
    await stopChild(seeder);
    const env = {
      SVC_DATABASE_URL: databaseUrl,
      SVC_DATA_DIR: dataDir,
      ...(postgres === undefined ? {} : { SVC_SECRET_KEY: secretKey }),
    };
    const endpoints = new Map();
    for (const count of WORKER_COUNTS) {
      onStep(`workers: starting svc serve --workers ${count}`, 0);
      const server = await startWorkers({ count, seed, env });
      servers.push(server);
      track(server);
      for (const pid of server.pids()) pin(pid);
      endpoints.set(server, await discover(server));
    }
    const [one, two] = servers;
    return await runWorkers({ one, two, endpoints, options, onStep });
  } finally {
    for (const server of servers) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs the row's scenarios on 1 and 2 workers (`one`, `two`: targets of startWorkers, `endpoints` their
 * discovered endpoints) and resolves to rows `{ scenario, connections, one, two, ratio, met }`, `ratio`
 * being 2 workers' requests per CPU-second over 1 worker's (or `{ …, error }`).
 */
export async function runWorkers({ one, two, endpoints, options, onStep }) {
  const rows = await runMatrix({
    scenarios: SCENARIOS.filter((s) => WORKER_SCENARIOS.has(s.name)),
    svc: one,
    peer: two,
    endpoints,
    options,
    onStep,
  });
  return rows.map((row) => {
    if (row.error !== undefined) return row;
    // Requests per CPU-second is the inverse of CPU per request: the ratio of 2 to 1 is 1's CPU over 2's.
    const ratio = row.svc.cpuMicrosPerRequest / row.peer.cpuMicrosPerRequest;
    return {
      scenario: row.scenario,
      connections: row.connections,
      one: perCpuSecond(row.svc),
      two: perCpuSecond(row.peer),
      ratio,
      met: ratio >= WORKERS_TARGET,
    };
  });
}

const perCpuSecond = (summary) => ({ ...summary, requestsPerCpuSecond: 1e6 / summary.cpuMicrosPerRequest });
