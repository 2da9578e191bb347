import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { findPostgresBin, launchPostgres, type LaunchedPostgres } from './postgres-launcher.js';
import { makeTemplateDatabases, type MadeTemplates, type TemplateDatabases } from './template-databases.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the test PostgreSQL, or '' when none is available. */
    postgresAdminUrl: string;
    /** Why PostgreSQL suites are skipped, or ''. */
    postgresSkipReason: string;
    /** The migrated (and keyed) databases that tests copy (template-databases.ts). */
    templateDatabases: TemplateDatabases;
    /** The master key (hex) that sealed the keyed templates' signing key; a test Svc on them uses it. */
    testMasterKey: string;
  }
}

let launched: LaunchedPostgres | undefined;
let made: MadeTemplates | undefined;

/**
 * One PostgreSQL for the whole run: SVC_TEST_DATABASE_URL when set, otherwise a throwaway cluster from
 * the machine's binaries. Each test file then creates databases of its own inside it, most of them as
 * copies of the templates made here.
 */
export async function setup(project: TestProject): Promise<void> {
  const required = process.env.SVC_REQUIRE_POSTGRES === '1';
  const given = process.env.SVC_TEST_DATABASE_URL;
  let url = '';
  let reason = '';
  if (given !== undefined && given !== '') {
    url = given;
  } else {
    const bin = findPostgresBin();
    if (bin === undefined) {
      reason = 'no PostgreSQL binaries found (install postgresql or set SVC_TEST_DATABASE_URL)';
    } else {
      try {
        launched = await launchPostgres(bin);
        url = launched.url;
      } catch (error) {
        reason = `the throwaway PostgreSQL did not start: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
  }
  if (url === '') {
    if (required) throw new Error(`SVC_REQUIRE_POSTGRES=1 but ${reason}.`);
    console.warn(`\n*** PostgreSQL suites SKIPPED: ${reason}. Only SQLite was tested. ***\n`);
  }
  const masterKey = randomBytes(32).toString('hex');
  made = await makeTemplateDatabases(url, masterKey);
  project.provide('postgresAdminUrl', url);
  project.provide('postgresSkipReason', reason);
  project.provide('templateDatabases', made.templates);
  project.provide('testMasterKey', masterKey);
}

export async function teardown(): Promise<void> {
  try {
    await made?.remove();
  } finally {
    await launched?.stop();
  }
}
