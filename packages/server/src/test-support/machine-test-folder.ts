import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A folder of test material that is slow to make (RSA keys, certificates), made once per machine and
 * shared by every worker and run: `make` writes its files into a staging folder, which becomes
 * `<tmp>/<name>` in one rename, so a folder is never seen half written. `last` is a file `make` writes,
 * whose presence says the folder is there. When another worker renamed its folder first, that one serves.
 */
export function machineTestFolder(name: string, last: string, make: (staging: string) => void): string {
  const folder = join(tmpdir(), name);
  if (existsSync(join(folder, last))) return folder;
  const staging = mkdtempSync(join(tmpdir(), `${name}-`));
  make(staging);
  try {
    renameSync(staging, folder);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
  return folder;
}
