import { defineConfig } from 'vitest/config';

/** Files that replace a module with vi.mock: they need modules of their own (see `isolate` below). */
const OWN_MODULES = ['packages/server/src/signin/password-throttle.http.test.ts'];

const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
} as const;

export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    // Once for the run: one PostgreSQL and the template databases every project's tests copy.
    globalSetup: ['packages/server/src/test-support/global-setup.ts'],
    // One worker per core of a 2-core machine; every suite owns its ports, folders and databases.
    maxWorkers: 2,
    projects: [
      {
        resolve: { conditions: ['source'] },
        test: {
          ...shared,
          name: 'main',
          include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: OWN_MODULES,
          // A worker imports the modules once for all the files it runs instead of once per file.
          isolate: false,
        },
      },
      { resolve: { conditions: ['source'] }, test: { ...shared, name: 'isolated', include: OWN_MODULES } },
    ],
  },
});
