import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testTempRoot } from './test-temp.js';

const run = promisify(execFile);

export interface LaunchedPostgres {
  /** Superuser URL of the throwaway cluster's `postgres` database. */
  readonly url: string;
  /** The cluster's data directory; its `postmaster.pid` names the running server. */
  readonly dataDir: string;
  /** `pg_ctl restart -m fast -w`: ends every session and is back (same port) when it resolves. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast -w`: ends every session; the port refuses connections when it resolves. */
  stopServer(): Promise<void>;
  /** `pg_ctl start -w` again on the same port, data directory and settings. */
  startServer(): Promise<void>;
  /** Stops the cluster for good and removes its folder. */
  stop(): Promise<void>;
}

/** Finds initdb and pg_ctl: PATH first, then the newest /usr/lib/postgresql/<version>/bin. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(root, versions[0], 'bin');
  }
  return undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts a throwaway PostgreSQL cluster in a temp folder on a free loopback port. initdb refuses to run
 * as root, so as root the cluster belongs to the `postgres` system user and every command runs through
 * `runuser -u postgres --`. Durability is switched off: the cluster lives for one test run.
 */
export async function launchPostgres(bin: string): Promise<LaunchedPostgres> {
  const dir = mkdtempSync(join(testTempRoot(), 'svc-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const { stdout: uid } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(uid.trim()), Number(gid.trim()));
  }
  const exec = (file: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, file), ...args]) : run(join(bin, file), args);
  const data = join(dir, 'data');
  const port = await freePort();
  await exec('initdb', [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--no-sync',
    '--locale=C',
  ]);
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
  ].join(' ');
  // Every start names the log file: without -l the server would inherit pg_ctl's stdout, and execFile
  // would wait for that pipe to close, i.e. for the server to exit.
  const pgCtl = (action: 'start' | 'restart' | 'stop') =>
    exec('pg_ctl', [
      '-D',
      data,
      ...(action === 'stop' ? [] : ['-o', settings, '-l', join(dir, 'log')]),
      ...(action === 'start' ? [] : ['-m', 'fast']),
      '-w',
      '-t',
      '60',
      action,
    ]).then(() => undefined);
  await pgCtl('start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir: data,
    restart: () => pgCtl('restart'),
    stopServer: () => pgCtl('stop'),
    startServer: () => pgCtl('start'),
    stop: async () => {
      try {
        await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
