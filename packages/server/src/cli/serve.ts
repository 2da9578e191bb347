import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { createSvc } from '../app/create-svc.js';
import { optionsFromEnv, seedDemoFromEnv } from '../config/env.js';
import type { SvcOptions } from '../config/options.js';
import { resolveConfig } from '../config/resolve.js';
import { SVC_VERSION } from '../kernel/version.js';
import { runClusterPrimary } from './cluster-primary.js';
import { devAdminToken } from './dev-admin-token.js';
import { printServeBanner } from './output.js';
import { keepServingOnStrayErrors } from './process-guards.js';
import { serveWorker } from './worker.js';
import { workerCount } from './worker-count.js';

export interface ServeFlags {
  seedDemo?: boolean;
  port?: string;
  host?: string;
  workers?: string;
}

/**
 * What the flags of `svc serve` set over the SVC_* environment. `--port` and `--host` win over their
 * variables. `--seed-demo` is baked into `npm start`, so there an explicit SVC_SEED_DEMO (on or off) wins
 * over the flag: `SVC_SEED_DEMO=0 npm start` starts without the demo data.
 */
export function serveOptions(flags: ServeFlags, env: NodeJS.ProcessEnv): SvcOptions {
  return {
    ...(flags.seedDemo === true ? { seedDemo: seedDemoFromEnv(env) ?? true } : {}),
    ...(flags.port === undefined ? {} : { port: Number(flags.port) }),
    ...(flags.host === undefined ? {} : { host: flags.host }),
  };
}

/**
 * `svc serve`: one process, or a primary and `--workers` workers behind one port (cli/worker-count.ts
 * decides how many). A cluster worker runs this command again, with the same flags, and becomes a worker.
 */
export async function serveCommand(flags: ServeFlags): Promise<void> {
  const options = { ...serveOptions(flags, process.env), ...devAdminToken(process.env) };
  if (cluster.isWorker) return serveWorker(options);
  const config = resolveConfig({ ...optionsFromEnv(process.env), ...options });
  const workers = workerCount(flags.workers, process.env, config, availableParallelism());
  if (workers.count > 1) return runClusterPrimary(options, workers);
  return serveOneProcess(options);
}

/** The server in this one process; stops cleanly on SIGINT/SIGTERM. */
async function serveOneProcess(options: SvcOptions): Promise<void> {
  console.log(`Starting Svc ${SVC_VERSION} …`);
  const svc = await createSvc(options);
  keepServingOnStrayErrors(svc.app.log);
  // Before the banner: whoever reads "Press Ctrl+C" may stop the server at once.
  const stop = (signal: string) => {
    console.log(`\n${signal} received, stopping …`);
    svc.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  const address = await svc.listen();
  printServeBanner(svc.config, address, svc.demo, 1);
}
