import { accessSync, constants, statfsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Free space a RAM-backed /dev/shm needs before the run's temporary folders go there. */
const SHM_FREE_BYTES = 2 * 1024 ** 3;

/**
 * The run's temporary folders (the throwaway PostgreSQL cluster, every test's SQLite copy and data
 * folder, the browsers' profiles) go to /dev/shm when it is a writable tmpfs with room, unless TMPDIR
 * is set: on the 2-core VM an fsync on the disk took 5.5 ms against 0.2 ms, and copying and removing a
 * small file 4.5 ms against 0.04 ms. The workers and the global setup inherit TMPDIR from this process.
 */
function useRamTmpdir(): void {
  if (process.env.TMPDIR !== undefined && process.env.TMPDIR !== '') return;
  try {
    accessSync('/dev/shm', constants.W_OK);
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize >= SHM_FREE_BYTES) process.env.TMPDIR = '/dev/shm';
  } catch {
    // No /dev/shm (macOS, say): the system's temporary folder.
  }
}
useRamTmpdir();

/** Files that replace a module with vi.mock: they need modules of their own (see `isolate` below). */
const OWN_MODULES = ['packages/server/src/signin/password-throttle.http.test.ts'];

/**
 * The files that take far longer than the rest (real `svc` processes, a PostgreSQL of their own),
 * longest first. Vitest starts the files it has timed before longest first, and the others largest
 * first; these are small files, so a run without vitest's cache (a fresh checkout) would start them
 * last and leave one worker running one of them alone at the end.
 */
const LONGEST_FILES = [
  'packages/server/src/scale-out/database-faults.test.ts',
  'packages/server/src/cli/serve-workers.test.ts',
  'packages/server/src/cli/cli.test.ts',
];

/** Vitest's order, with LONGEST_FILES moved to the front of their project. */
class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FILES.findIndex((path) => file.moduleId.endsWith(path));
      return at === -1 ? LONGEST_FILES.length : at;
    };
    // Array.prototype.sort is stable: the other files keep vitest's order, and projects stay apart.
    const projects = [...new Set(sorted.map((file) => file.project.name))];
    return projects.flatMap((name) =>
      sorted.filter((file) => file.project.name === name).sort((a, b) => rank(a) - rank(b)),
    );
  }
}

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
    sequence: { sequencer: LongestFirstSequencer },
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
