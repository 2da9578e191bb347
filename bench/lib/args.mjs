// Command line of `npm run bench -- [options]` and its environment variables.
import { parseArgs } from 'node:util';

export const USAGE = `npm run bench -- [options]
  --db sqlite|postgres   Svc's database (postgres: a throwaway cluster in a temp folder). Default sqlite.
  --quick                3-second runs, one run per target (a smoke test, not a result).
  --only a,b             Only these scenarios (discovery, discovery_access_log, jwks, userinfo,
                         client_credentials, refresh_token, authorization_code, password_login,
                         validate_access_token, workers, fga_check).
  --connections 10,50    Connection counts. Default 10,50.
  --cpu-prof             Profile the Svc child (--cpu-prof) and print its hottest functions.
  --no-pin               Do not pin the servers to one core and the load generator to another (by
                         default they are, with taskset, where this process may use two cores).
  --seed-large           Also start a Svc filled with 1,000,000 users, 10,000 organizations and 500,000
                         sessions and run client_credentials, refresh_token, authorization_code,
                         password_login (seeded users) and the operator lists (users_list,
                         organizations_list, users_deep_page) on it, alternating with the empty Svc.
  The workers row runs client_credentials and refresh_token on \`svc serve --workers 1\` and
  \`--workers 2\` (the built CLI) and compares their requests per CPU-second (--only workers).
Environment: BENCH_DURATION (seconds per run, default 10), BENCH_RUNS (runs per target, default 3).
The servers run with NODE_ENV=production and Svc with its default configuration (logging included).`;

/** The parsed options: { db, durationS, runs, only, connections, cpuProf, seedLarge, pin }. */
export function benchOptions(argv = process.argv.slice(2), env = process.env) {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string', default: 'sqlite' },
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      connections: { type: 'string', default: '10,50' },
      'cpu-prof': { type: 'boolean', default: false },
      'seed-large': { type: 'boolean', default: false },
      'no-pin': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values.db !== 'sqlite' && values.db !== 'postgres')
    throw new Error(`--db: sqlite or postgres, not ${values.db}`);
  const number = (value, name) => {
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${name} must be a positive number`);
    return parsed;
  };
  return {
    db: values.db,
    durationS: number(env.BENCH_DURATION ?? (values.quick ? 3 : 10), 'BENCH_DURATION'),
    runs: Math.round(number(env.BENCH_RUNS ?? (values.quick ? 1 : 3), 'BENCH_RUNS')),
    only: values.only === undefined ? null : new Set(values.only.split(',')),
    connections: values.connections.split(',').map((c) => Math.round(number(c, '--connections'))),
    cpuProf: values['cpu-prof'],
    seedLarge: values['seed-large'],
    pin: !values['no-pin'],
  };
}
