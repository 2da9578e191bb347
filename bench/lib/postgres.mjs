// A throwaway PostgreSQL cluster for `--db postgres`: a small copy of
// packages/server/src/test-support/postgres-launcher.ts (test-support is not exported by @svc/server).
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './rpc.mjs';

const run = promisify(execFile);

/** The newest /usr/lib/postgresql/<version>/bin that has initdb, or undefined. */
function findPostgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/**
 * Starts a cluster in a temp folder on a free port (as root it belongs to the `postgres` user, since
 * initdb refuses root) with the test suite's settings: durability off, 300 connections. Resolves to
 * `{ url, createDatabase(name), stop() }`.
 */
export async function launchPostgres() {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error('--db postgres: no /usr/lib/postgresql/<version>/bin/initdb');
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const { stdout: uid } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(uid.trim()), Number(gid.trim()));
  }
  const exec = (file, args) =>
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
  await exec('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  const url = (database) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    url: url('postgres'),
    /** Creates one more database in the cluster (the --seed-large Svc's) and resolves to its URL. */
    createDatabase: async (name) => {
      await exec('psql', ['-h', dir, '-p', String(port), '-U', 'postgres', '-c', `CREATE DATABASE ${name}`]);
      return url(name);
    },
    stop: async () => {
      try {
        await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
