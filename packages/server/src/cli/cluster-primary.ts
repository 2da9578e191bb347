import { createServer } from 'node:net';
import { createSvc } from '../app/create-svc.js';
import type { SvcOptions } from '../config/options.js';
import { SVC_VERSION } from '../kernel/version.js';
import { cliMessage, printServeBanner } from './output.js';
import type { WorkerCount } from './worker-count.js';
import { WorkerSupervisor } from './worker-supervisor.js';

/**
 * The primary of `svc serve --workers N` (node:cluster: Node 20's net has no SO_REUSEPORT). It prepares
 * the database once (migrations, the first signing key, the demo seed: what every worker would
 * otherwise race to do), then forks N workers that share the port and, like separate nodes, share the
 * signing keys, rate-limit counters and sessions through the database. It never serves a request.
 *
 * Signals: SIGINT and SIGTERM stop the workers gracefully and exit 0; SIGHUP restarts them one at a
 * time (cli/worker-supervisor.ts) without failing a request. A worker that cannot start at first stops
 * everything with its reason and exit code 1; one that dies later is replaced.
 */
export async function runClusterPrimary(options: SvcOptions, workers: WorkerCount): Promise<void> {
  console.log(`Starting Svc ${SVC_VERSION} with ${workers.count} workers …`);
  if (workers.warning !== undefined) console.warn(`svc: warning: ${workers.warning}`);
  const prepared = await createSvc({ ...options, keyRotationSchedule: false });
  const { config, demo } = prepared;
  await prepared.close();
  // A port already taken is the common failure: say so now, not after N workers have loaded the app.
  const free = await portIsFree(config.host, config.port);
  if (free !== true) throw free;

  const supervisor = new WorkerSupervisor({
    info: (message) => console.log(message),
    error: (message) => console.error(`svc: ${message}`),
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal} received, stopping the workers …`);
    supervisor.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  let address: string;
  try {
    address = await supervisor.start(workers.count);
  } catch (error) {
    if (stopping) return;
    stopping = true;
    console.error(`svc: a worker could not start: ${cliMessage(error)}`);
    await supervisor.stop();
    process.exit(1);
  }
  process.on('SIGHUP', () => {
    if (stopping) return;
    console.log('SIGHUP received, restarting the workers one at a time …');
    supervisor.restartAll().then(
      (done) => {
        if (!stopping) console.log(done ? 'Every worker restarted.' : 'A restart is already under way.');
      },
      (error: unknown) => {
        if (!stopping) {
          console.error(`svc: the restart stopped, a new worker could not start: ${cliMessage(error)}`);
        }
      },
    );
  });
  printServeBanner(config, address, demo, workers.count);
}

/** `true`, or the error of listening on the port (which a worker would meet the same way). */
function portIsFree(host: string, port: number): Promise<true | Error> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', resolve);
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
