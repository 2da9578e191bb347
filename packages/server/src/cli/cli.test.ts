import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../storage/database.js';
import { MIGRATION_NAMES } from '../storage/migrations/index.js';
import { serveOptions } from './serve.js';
import { RestartBackoff } from './restart-backoff.js';
import { workerCount } from './worker-count.js';
import { freePort } from '../test-support/postgres-launcher.js';
import { runSvcCli, SVC_CLI as CLI } from '../test-support/svc-processes.js';
import { testTempRoot } from '../test-support/test-temp.js';

/** The built CLI, as `npm start` runs it (npm test builds before testing), to its end. */
const svc = (args: string[], env: NodeJS.ProcessEnv) => runSvcCli(args, env);

describe('svc CLI', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const database = () =>
    openDatabase({ kind: 'sqlite', filename: join(dir, 'svc.db'), url: `sqlite:${join(dir, 'svc.db')}` });

  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm test does).`);
  });
  beforeEach(() => {
    dir = mkdtempSync(join(testTempRoot(), 'svc-cli-'));
    env = { SVC_DATABASE_URL: `sqlite:${join(dir, 'svc.db')}`, SVC_DATA_DIR: dir, SVC_LOG_LEVEL: 'off' };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('explains its commands with --help', async () => {
    const run = await svc(['--help'], env);
    expect(run.code).toBe(0);
    for (const command of ['serve', 'migrate', 'seed-demo', 'operator', 'keys'])
      expect(run.stdout).toContain(command);
    expect((await svc(['serve', '--help'], env)).stdout).toContain('--workers <count>');
    const keys = await svc(['keys', '--help'], env);
    expect(keys.stdout).toContain('rotate');
  });

  it('migrates, then reports the database up to date', async () => {
    const first = await svc(['migrate'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `Applied ${MIGRATION_NAMES.length} migration(s): ${MIGRATION_NAMES.join(', ')}`,
    );
    expect((await svc(['migrate'], env)).stdout).toContain('Database is up to date.');
  });

  it('refuses a bad configuration with a message that says what to fix', async () => {
    const run = await svc(['migrate'], { ...env, SVC_DATABASE_URL: 'mysql://localhost/svc' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/svc: SVC_DATABASE_URL has an unknown scheme "mysql"/);
    const unknown = await svc(['fly'], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("unknown command 'fly'");
  });

  it('says when the database does not answer, and what to check', async () => {
    const port = await freePort(); // nothing listens there
    const run = await svc(['migrate'], {
      ...env,
      SVC_DATABASE_URL: `postgres://svc@127.0.0.1:${port}/svc`,
      SVC_DB_CONNECT_TIMEOUT_MS: '500',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^svc: the database is not answering \(.*ECONNREFUSED.*\)\. Check SVC_DATABASE_URL and that the database is running\.$/m,
    );
  });

  it('marks an operator, creating a passwordless user when missing', async () => {
    const run = await svc(['operator', 'add', '  Ops@Example.com '], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/ops@example\.com \(id usr_\w+\) is now an operator\./i);
    const handle = database();
    const user = await handle.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    await handle.close();
    expect(user).toMatchObject({ emailKey: 'OPS@EXAMPLE.COM', isOperator: 1, passwordHash: null });
  });

  it('rotates the signing key, keeping the old one published', async () => {
    // On a new database: the command migrates and creates the first key, as serve would, then rotates.
    const run = await svc(['keys', 'rotate'], env);
    expect(run.code).toBe(0);
    const kid = /New signing key (\S+) is active/.exec(run.stdout)?.[1];
    const handle = database();
    const keys = await handle.db.selectFrom('signingKeys').selectAll().execute();
    await handle.close();
    expect(keys).toHaveLength(2);
    expect(keys.find((k) => k.activeSlot === 1)?.kid).toBe(kid);
    expect(keys.find((k) => k.kid !== kid)?.rotatedOutAt).not.toBeNull();
  });

  it('seeds the demo once', async () => {
    const first = await svc(['seed-demo'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Demo data seeded:');
    expect(first.stdout).toContain('demo@demo.example  password: svc-demo-password');
    expect(first.stdout).toMatch(/demo-partner \(third-party, confidential, secret: [\w-]{43}\)/);
    const second = await svc(['seed-demo'], env);
    expect(second.stdout).toContain('Demo data (already seeded):');
    const handle = database();
    const clients = await handle.db.selectFrom('clients').select('clientId').orderBy('clientId').execute();
    await handle.close();
    expect(clients.map((c) => c.clientId)).toEqual(['demo-device', 'demo-partner', 'demo-web']);
  });

  /** `svc serve --seed-demo` as `npm start` runs it, until it is ready; stop it with `stop()`. */
  async function npmStart(extraEnv: NodeJS.ProcessEnv = {}) {
    const child = spawn(process.execPath, [CLI, 'serve', '--seed-demo'], {
      env: { PATH: process.env.PATH, ...env, SVC_PORT: '0', ...extraEnv },
    });
    let stdout = '';
    const address = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (match?.[1] !== undefined && stdout.includes('Press Ctrl+C to stop.')) resolve(match[1]);
      });
      child.on('close', (code) => reject(new Error(`serve exited ${code}: ${stdout}`)));
    });
    const stop = () => {
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      child.kill('SIGTERM');
      return exited;
    };
    return { address, stdout, stop };
  }

  it('serves discovery and stops cleanly on SIGTERM', async () => {
    const { address, stdout, stop } = await npmStart({
      SVC_DCR_ENABLED: '1',
      SVC_CIMD_ENABLED: '1',
      SVC_CIMD_ALLOWED_HOSTS: 'apps.example.com',
    });
    const response = await fetch(`${address}/svc/auth/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const discovery = (await response.json()) as { jwks_uri: string; registration_endpoint: string };
    expect(discovery.jwks_uri).toMatch(/\/svc\/auth\/\.well-known\/jwks\.json$/);
    // Dynamic client registration, when on, is said, and so is an open scope ceiling.
    expect(stdout).toContain(`registration ${discovery.registration_endpoint}`);
    expect(stdout).toContain('Registered apps may ask for any scope: set SVC_DCR_ALLOWED_SCOPES');
    expect(stdout).toContain('client_ids may be https URLs on apps.example.com');
    expect(stdout).toContain('set SVC_CIMD_ALLOWED_SCOPES');
    expect(stdout).toContain('development operator token:');
    const link = /(http:\/\/\S+\/svc\/auth\/authorize\?\S+)/.exec(stdout)?.[1];
    expect(new URL(link ?? 'http://x').searchParams.get('client_id')).toBe('demo-web');
    expect(new URL(link ?? 'http://x').searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(await stop()).toBe(0);
  });

  it('starts without the demo under --seed-demo when SVC_SEED_DEMO=0', async () => {
    const { stdout, stop } = await npmStart({ SVC_SEED_DEMO: '0' });
    expect(await stop()).toBe(0);
    expect(stdout).not.toContain('Demo data');
    const handle = database();
    const clients = await handle.db.selectFrom('clients').select('clientId').execute();
    await handle.close();
    expect(clients).toEqual([]);
  });
});

describe('svc serve options over the environment', () => {
  it.each([
    [{ seedDemo: true }, {}, true],
    [{ seedDemo: true }, { SVC_SEED_DEMO: '' }, true],
    [{ seedDemo: true }, { SVC_SEED_DEMO: '0' }, false],
    [{ seedDemo: true }, { SVC_SEED_DEMO: 'false' }, false],
    [{ seedDemo: true }, { SVC_SEED_DEMO: ' OFF ' }, false],
    [{ seedDemo: true }, { SVC_SEED_DEMO: 'on' }, true],
    [{}, { SVC_SEED_DEMO: '0' }, undefined],
    [{}, { SVC_SEED_DEMO: '1' }, undefined],
  ] as const)('flags %j with %j seed the demo: %s', (flags, flagEnv, seedDemo) => {
    expect(serveOptions(flags, flagEnv).seedDemo).toBe(seedDemo);
  });

  it('refuses a malformed SVC_SEED_DEMO instead of guessing', () => {
    expect(() => serveOptions({ seedDemo: true }, { SVC_SEED_DEMO: 'nah' })).toThrow(/SVC_SEED_DEMO must be/);
  });

  it('lets --port and --host win over their variables (createSvc puts options over the environment)', () => {
    expect(serveOptions({ port: '9000', host: '0.0.0.0' }, { SVC_PORT: '8000' })).toEqual({
      port: 9000,
      host: '0.0.0.0',
    });
  });
});

describe('svc serve worker count', () => {
  const postgres = {
    kind: 'postgres',
    connectionString: 'postgres://db/svc',
    url: 'postgres://db/svc',
  } as const;
  const sqliteFile = { kind: 'sqlite', filename: '/data/svc.db', url: 'sqlite:/data/svc.db' } as const;
  const production = { development: false, database: postgres };

  it.each([
    ['production on PostgreSQL: one per core', undefined, {}, production, 8],
    ['development: one', undefined, {}, { development: true, database: postgres }, 1],
    ['SQLite in production: one', undefined, {}, { development: false, database: sqliteFile }, 1],
    ['SVC_WORKERS', undefined, { SVC_WORKERS: ' 3 ' }, production, 3],
    ['an empty SVC_WORKERS is unset', undefined, { SVC_WORKERS: '' }, production, 8],
    ['--workers over SVC_WORKERS', '2', { SVC_WORKERS: '3' }, production, 2],
    ['--workers in development', '4', {}, { development: true, database: postgres }, 4],
  ] as const)('%s', (_name, flag, env, config, count) => {
    expect(workerCount(flag, env, config, 8)).toEqual({ count });
  });

  it('runs several workers on SQLite only when asked, with a warning', () => {
    const asked = workerCount('2', {}, { development: false, database: sqliteFile }, 8);
    expect(asked.count).toBe(2);
    expect(asked.warning).toMatch(/SQLite takes one write at a time.*Prefer PostgreSQL/);
    expect(workerCount('1', {}, { development: false, database: sqliteFile }, 8)).toEqual({ count: 1 });
  });

  it('refuses several workers on an in-memory database, and counts that are not counts', () => {
    const memory = { kind: 'sqlite', filename: ':memory:', url: 'sqlite::memory:' } as const;
    expect(() => workerCount('2', {}, { development: true, database: memory }, 8)).toThrow(
      /in-memory SQLite database lives in one process/,
    );
    expect(() => workerCount('0', {}, production, 8)).toThrow(
      /--workers must be a whole number of workers of at least 1, got "0"/,
    );
    expect(() => workerCount(undefined, { SVC_WORKERS: 'all' }, production, 8)).toThrow(
      /SVC_WORKERS must be/,
    );
  });
});

describe('worker restart backoff', () => {
  it('doubles the wait with each death of the last minute, up to 10 s, and forgets older deaths', () => {
    const backoff = new RestartBackoff();
    const waits = Array.from({ length: 9 }, (_, i) => backoff.nextDelay(i * 1_000));
    expect(waits).toEqual([100, 200, 400, 800, 1_600, 3_200, 6_400, 10_000, 10_000]);
    // At 67 s only the death at 8 s is within the minute: this is the second one.
    expect(backoff.nextDelay(67_000)).toBe(200);
  });
});
