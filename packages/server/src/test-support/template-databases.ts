import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseTarget } from '../config/resolve.js';
import { SecretBox } from '../kernel/crypto.js';
import { SigningKeys } from '../oauth/keys/signing-keys.js';
import { DEFAULT_SECURITY_SETTINGS } from '../settings/security-settings.js';
import { migrateToLatest, openDatabase, type Db } from '../storage/database.js';
import { signingKeyRepository } from '../storage/repositories/signing-keys.js';
import { FakeClock } from './fake-clock.js';

/**
 * What a test database starts as: `empty`; `migrated` (the schema); `keyed` (the schema and the first
 * signing key, as a first start on a fake clock leaves it, sealed with the run's test master key).
 */
export type TestDatabaseStart = 'empty' | 'migrated' | 'keyed';

type TemplateName = Exclude<TestDatabaseStart, 'empty'>;

/** Where the migrated and keyed templates of one run are: SQLite files and PostgreSQL database names. */
export interface TemplateDatabases {
  readonly sqlite: Readonly<Record<TemplateName, string>>;
  /** Absent when the run has no PostgreSQL. */
  readonly postgres:
    | {
        readonly templates: Readonly<Record<TemplateName, string>>;
        /** Every database of the run starts with it, so that the end of the run drops what is left. */
        readonly prefix: string;
        /** What follows `CREATE DATABASE name TEMPLATE t`: ` STRATEGY FILE_COPY` or nothing (fileCopyStrategy). */
        readonly strategy: string;
      }
    | undefined;
}

export interface MadeTemplates {
  readonly templates: TemplateDatabases;
  /** Removes the SQLite files and drops every PostgreSQL database of the run that is left. */
  remove(): Promise<void>;
}

/**
 * Migrates once per run what every test would otherwise migrate for itself, and generates the one RSA
 * signing key every test Svc starts with: tests copy these (a file copy, CREATE DATABASE … TEMPLATE).
 */
export async function makeTemplateDatabases(
  postgresAdminUrl: string,
  masterKey: string,
): Promise<MadeTemplates> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-templates-'));
  const sqlite = { migrated: join(dir, 'migrated.db'), keyed: join(dir, 'keyed.db') };
  const prefix = `svc_${randomBytes(6).toString('hex')}_`;
  const postgres = { migrated: `${prefix}migrated`, keyed: `${prefix}keyed` };
  const remove = async () => {
    rmSync(dir, { recursive: true, force: true });
    if (postgresAdminUrl !== '') await dropDatabasesStartingWith(postgresAdminUrl, prefix);
  };
  try {
    await withDatabase(sqliteTarget(sqlite.migrated), migrateToLatest);
    copyFileSync(sqlite.migrated, sqlite.keyed);
    await withDatabase(sqliteTarget(sqlite.keyed), (db) => addFirstSigningKey(db, masterKey));
    if (postgresAdminUrl === '') return { templates: { sqlite, postgres: undefined }, remove };
    const strategy = await withAdminClient(postgresAdminUrl, fileCopyStrategy);
    await withAdminClient(postgresAdminUrl, (client) =>
      client.query(`CREATE DATABASE ${postgres.migrated}${strategy}`),
    );
    await withDatabase(postgresTarget(postgresAdminUrl, postgres.migrated), migrateToLatest);
    await withAdminClient(postgresAdminUrl, (client) =>
      client.query(`CREATE DATABASE ${postgres.keyed} TEMPLATE ${postgres.migrated}${strategy}`),
    );
    await withDatabase(postgresTarget(postgresAdminUrl, postgres.keyed), (db) =>
      addFirstSigningKey(db, masterKey),
    );
    return { templates: { sqlite, postgres: { templates: postgres, prefix, strategy } }, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/**
 * ` STRATEGY FILE_COPY` where the server has it (PostgreSQL 15 and later), else nothing. PostgreSQL 15
 * copies a template block by block through the WAL by default, which is made for large templates that
 * a checkpoint would hold up; a test database is a copy of a 10 MB one on a cluster without fsync,
 * which FILE_COPY (a checkpoint and a file copy, the only way before 15) copies in about a third of the
 * time and CPU (1.3 s and 0.37 s of the server's CPU against 0.38 s and 0.11 s, on the loaded 2-core
 * machine).
 */
async function fileCopyStrategy(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
  return Number(rows[0]?.server_version_num) >= 150_000 ? ' STRATEGY FILE_COPY' : '';
}

/** The URL of database `name` on the server of `adminUrl`. */
export function postgresDatabaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<T>(url: string, action: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await action(client);
  } finally {
    await client.end();
  }
}

async function dropDatabasesStartingWith(adminUrl: string, prefix: string): Promise<void> {
  await withAdminClient(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  });
}

function sqliteTarget(filename: string): DatabaseTarget {
  return { kind: 'sqlite', filename, url: `sqlite:${filename}` };
}

function postgresTarget(adminUrl: string, name: string): DatabaseTarget {
  const connectionString = postgresDatabaseUrl(adminUrl, name);
  return { kind: 'postgres', connectionString, url: connectionString };
}

/** Opens `target`, runs `action` on it, closes it (which checkpoints SQLite's WAL into the file, so that
 * a copy of the file alone is complete). */
async function withDatabase(target: DatabaseTarget, action: (db: Db) => Promise<unknown>): Promise<void> {
  const handle = openDatabase(target);
  try {
    await action(handle.db);
  } finally {
    await handle.close();
  }
}

/** The first signing key, as SigningKeys creates it on a first start at the fake clock's start time. */
function addFirstSigningKey(db: Db, masterKey: string): Promise<void> {
  const keys = new SigningKeys({
    repository: signingKeyRepository(db),
    secretBox: new SecretBox(Buffer.from(masterKey, 'hex')),
    clock: new FakeClock(),
    settings: () => Promise.resolve(DEFAULT_SECURITY_SETTINGS),
  });
  return keys.ensureActiveKey();
}
