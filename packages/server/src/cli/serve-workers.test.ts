import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../test-support/databases.js';
import { freePort } from '../test-support/postgres-launcher.js';
import { assertCliBuilt, runSvcCli, SvcProcess } from '../test-support/svc-processes.js';
import {
  childPids,
  connectionToEach,
  getOnNewConnection,
  isAlive,
  type PinnedConnection,
} from '../test-support/worker-connections.js';
import { testTempRoot } from '../test-support/test-temp.js';

const AUTH = '/svc/auth';
const DISCOVERY = `${AUTH}/.well-known/openid-configuration`;
const READY = /Press Ctrl\+C to stop\./;
const DEMO_LOGIN = { email: 'demo@demo.example', password: 'svc-demo-password', clientId: 'demo-web' };
/** rateLimits.deviceStart: 30 starts per client and address in 15 minutes (ratelimit/rules.ts). */
const DEVICE_STARTS_ALLOWED = 30;

interface Tokens {
  readonly accessToken: string;
  readonly refreshToken: string;
}

/** A bounded poll of `check` every 50 ms: for what no event announces (a process's children). */
async function until<T>(what: string, check: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeEachDatabase('svc serve --workers 2', (kind) => {
  let database: TestDatabase;
  let dataDir: string;
  let primary: SvcProcess;
  let workers: number[];
  let tokens: Tokens;

  const userinfo = (connection: PinnedConnection, accessToken: string) =>
    connection.request('GET', `${AUTH}/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  const refresh = async (connection: PinnedConnection, refreshToken: string): Promise<Tokens> => {
    const reply = await connection.request('POST', `${AUTH}/token`, {
      form: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'demo-web' },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return { accessToken: String(reply.body.access_token), refreshToken: String(reply.body.refresh_token) };
  };

  beforeAll(async () => {
    assertCliBuilt();
    // Migrated ahead (a copy of the run's template): what is under test is the primary's preparing once
    // (the first signing key, the demo), not the migrations, which cli.test.ts runs.
    database = await createTestDatabase(kind, 'migrated');
    dataDir = mkdtempSync(join(testTempRoot(), 'svc-workers-'));
    const env = { SVC_DATABASE_URL: database.url, SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: 'warn' };
    primary = new SvcProcess(`primary [${kind}]`, await freePort(), env, ['--workers', '2', '--seed-demo']);
    await primary.waitForOutput(READY);
  });
  afterAll(async () => {
    await primary.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prepares once, then serves from two worker processes that accept what the other issued', async () => {
    expect(primary.output()).toMatch(/Svc is listening on http:\/\/\S+ with 2 workers/);
    expect(primary.output().match(/Demo data seeded:/g)).toHaveLength(1);
    if (kind === 'sqlite')
      expect(primary.output()).toContain('svc: warning: SQLite takes one write at a time');
    workers = childPids(primary.pid);
    expect(workers).toHaveLength(2);
    // A connection that no worker held (the primary's, say) would fail connectionToEach.
    const [a, b] = (await connectionToEach(primary.address, DISCOVERY, workers)) as [
      PinnedConnection,
      PinnedConnection,
    ];
    try {
      const login = await a.request('POST', `${AUTH}/password/login`, { json: DEMO_LOGIN });
      expect(login.status).toBe(200);
      tokens = login.body.tokens as Tokens;
      expect((await userinfo(b, tokens.accessToken)).body.email).toBe(DEMO_LOGIN.email);
      // Each rotation on one worker, the next on the other: the refresh tokens live in the database.
      for (let i = 0; i < 10; i += 1) tokens = await refresh(i % 2 === 0 ? b : a, tokens.refreshToken);
      expect((await userinfo(a, tokens.accessToken)).status).toBe(200);
    } finally {
      a.close();
      b.close();
    }
  });

  it('counts a rate limit across the workers', async () => {
    const pinned = await connectionToEach(primary.address, DISCOVERY, workers);
    try {
      const start = (connection: PinnedConnection) =>
        connection.request('POST', `${AUTH}/device_authorization`, { form: { client_id: 'demo-device' } });
      for (let i = 0; i < DEVICE_STARTS_ALLOWED; i += 1) {
        expect((await start(pinned[i % 2] as PinnedConnection)).status).toBe(200);
      }
      for (const connection of pinned) {
        const refused = await start(connection);
        expect([refused.status, refused.body.error]).toEqual([400, 'slow_down']);
      }
    } finally {
      for (const connection of pinned) connection.close();
    }
  });

  // Replacing and restarting workers is the primary's alone, whatever the database: checked once, on
  // the production database (the suite's time is the reason; the sharing tests above run on both).
  // Starting new worker processes is what they wait for, which takes several times longer on a loaded
  // machine: their limit is the hooks' own, not the 30 s of a test.
  const supervision = (name: string, test: () => Promise<void>) => {
    if (kind === 'postgres') it(name, test, 60_000);
  };

  supervision('replaces a worker killed with SIGKILL, and requests keep succeeding', async () => {
    const [killed, survivor] = workers as [number, number];
    process.kill(killed, 'SIGKILL');
    await primary.waitForOutput(new RegExp(`worker ${killed} died \\(signal SIGKILL\\)`));
    // From the death on, while the survivor serves alone, through the replacement's start, and after.
    const answers: (number | string)[] = [];
    let replaced = false;
    const announced = primary.waitForOutput(/worker \d+ replaced it/).finally(() => (replaced = true));
    while (!replaced) answers.push(await getOnNewConnection(primary.address, DISCOVERY));
    await announced;
    for (let i = 0; i < 10; i += 1) answers.push(await getOnNewConnection(primary.address, DISCOVERY));
    expect(answers.filter((answer) => answer !== 200)).toEqual([]);
    const replacement = Number(/worker (\d+) replaced it/.exec(primary.output())?.[1]);
    expect(childPids(primary.pid)).toEqual([survivor, replacement].sort((x, y) => x - y));
    workers = [survivor, replacement];
    const pinned = await connectionToEach(primary.address, DISCOVERY, workers);
    try {
      expect((await userinfo(pinned[1] as PinnedConnection, tokens.accessToken)).status).toBe(200);
    } finally {
      for (const connection of pinned) connection.close();
    }
  });

  supervision(
    'restarts the workers one at a time on SIGHUP while clients poll, without a failed request',
    async () => {
      const failures: string[] = [];
      let served = 0;
      let polling = true;
      const poll = async () => {
        while (polling) {
          const answer = await fetch(`${primary.address}${AUTH}/userinfo`, {
            headers: { authorization: `Bearer ${tokens.accessToken}` },
          }).then(
            async (response) => (await response.arrayBuffer(), response.status),
            (error: unknown) =>
              `${(error as Error).message} (${String((error as { cause?: unknown }).cause)})`,
          );
          if (answer === 200) served += 1;
          else failures.push(String(answer));
        }
      };
      const pollers = Array.from({ length: 4 }, () => poll());
      try {
        await until('the pollers to be served', () => (served > 20 ? true : undefined));
        const before = served;
        process.kill(primary.pid, 'SIGHUP');
        await primary.waitForOutput(/Every worker restarted\./, 60_000);
        const now = childPids(primary.pid);
        expect(now).toHaveLength(2);
        expect(now.filter((pid) => workers.includes(pid))).toEqual([]);
        expect(workers.filter(isAlive)).toEqual([]);
        expect(served).toBeGreaterThan(before);
        workers = now;
      } finally {
        polling = false;
        await Promise.all(pollers);
      }
      expect(failures).toEqual([]);
    },
  );

  it('stops on SIGTERM with exit code 0, and its workers with it', async () => {
    await primary.stop();
    expect(primary.exits.at(-1)).toMatchObject({ code: 0, signal: null });
    expect(workers.filter(isAlive)).toEqual([]);
  });
});

describe('svc serve --workers when a worker cannot start', () => {
  let dir: string;
  let database: TestDatabase;
  let occupied: Server;
  beforeAll(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(testTempRoot(), 'svc-workers-'));
    database = await createTestDatabase('sqlite', 'migrated');
    occupied = createServer();
    await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    occupied.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops with the reason and exit code 1 when the port is taken', async () => {
    const address = occupied.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const run = await runSvcCli(['serve', '--workers', '2'], {
      SVC_DATABASE_URL: database.url,
      SVC_DATA_DIR: dir,
      SVC_LOG_LEVEL: 'off',
      SVC_HOST: '127.0.0.1',
      SVC_PORT: String(address.port),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `svc: 127.0.0.1:${address.port} is in use: stop what listens there, or choose another port (SVC_PORT or --port).`,
    );
    expect(run.stdout).not.toContain('Svc is listening');
  });
});
