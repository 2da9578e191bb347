// Installs the workspace's dependencies when they are missing or older than the lockfile, so that
// `npm start` and `npm test` work on a fresh clone. Dev dependencies are always included: the build
// needs TypeScript even under NODE_ENV=production.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const stale =
  !existsSync(marker) ||
  statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs + 1000 ||
  !existsSync('node_modules/better-sqlite3/build/Release/better_sqlite3.node');

if (stale) {
  console.log('Installing dependencies (npm ci; the SQLite driver compiles natively, about a minute) …');
  execSync('npm ci --include=dev --no-audit --no-fund', { stdio: 'inherit' });
}
