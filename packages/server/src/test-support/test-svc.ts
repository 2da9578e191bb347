import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createSvc, type Svc } from '../app/create-svc.js';
import type { SvcOptions } from '../config/options.js';
import type { Dialect } from '../storage/database.js';
import { createTestDatabase } from './databases.js';
import { FakeClock } from './fake-clock.js';
import { TEST_PASSWORD_HASHING } from './test-password-hashing.js';
import { testTempRoot } from './test-temp.js';

export const TEST_ADMIN_TOKEN = 'test-operator-token-0123456789abcdef';
export const TEST_ORIGIN = 'http://localhost:8080';

export interface TestSvc {
  readonly svc: Svc;
  readonly clock: FakeClock;
  /** Headers of an authorized operator request. */
  readonly operator: { authorization: string };
  close(): Promise<void>;
}

/**
 * A Svc built through the real app factory on a fresh database of its own (SQLite by default), with a
 * fake clock, the test operator token, the cheapest password hashing, no logging (unless the options
 * give a log stream) and the environment ignored. The database is a copy of the run's keyed template, so the Svc starts as on a second start
 * (migrated, a signing key sealed with the run's test master key) instead of generating an RSA key.
 * `context.databaseUrl` rewrites the URL Svc connects with (a proxy in front of the database).
 */
export async function createTestSvc(
  kind: Dialect = 'sqlite',
  options: SvcOptions = {},
  context: { readonly databaseUrl?: (url: string) => string } = {},
): Promise<TestSvc> {
  const database = await createTestDatabase(kind, 'keyed');
  const dataDir = mkdtempSync(join(testTempRoot(), 'svc-data-'));
  const clock = new FakeClock();
  try {
    const svc = await createSvc(
      {
        databaseUrl: context.databaseUrl?.(database.url) ?? database.url,
        dataDir,
        publicOrigin: TEST_ORIGIN,
        adminToken: TEST_ADMIN_TOKEN,
        secretKey: inject('testMasterKey'),
        // No logging, unless the test captures the log lines.
        ...(options.logStream === undefined ? { logLevel: false as const } : {}),
        keyRotationSchedule: false,
        passwordHashing: TEST_PASSWORD_HASHING,
        clock,
        ...options,
      },
      { env: {} },
    );
    return {
      svc,
      clock,
      operator: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      async close() {
        await svc.close();
        await database.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A second node of `first`: another Svc on the same database, data folder, master key and clock, with
 * `options` (seeds, say) and `env` as its environment. The caller closes it.
 */
export function anotherNode(
  first: TestSvc,
  options: SvcOptions = {},
  env: NodeJS.ProcessEnv = {},
): Promise<Svc> {
  const { config } = first.svc;
  return createSvc(
    {
      databaseUrl: config.database.url,
      dataDir: config.dataDir,
      publicOrigin: config.publicOrigin,
      ...(config.secretKey === undefined ? {} : { secretKey: config.secretKey }),
      logLevel: false,
      keyRotationSchedule: false,
      clock: first.clock,
      ...options,
    },
    { env },
  );
}
