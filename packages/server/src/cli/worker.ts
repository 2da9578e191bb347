import { Server } from 'node:net';
import { createSvc, type Svc } from '../app/create-svc.js';
import type { SvcOptions } from '../config/options.js';
import { isDrainOrder, type WorkerReport } from './cluster-messages.js';
import { cliMessage } from './output.js';
import { keepServingOnStrayErrors } from './process-guards.js';

/**
 * How long a draining worker waits for its open keep-alive connections to carry one more request
 * (answered with `Connection: close`) before it closes the ones that stayed idle. A client that polls
 * comes back well within it; closing an idle connection races with a request its client may be sending.
 */
const DRAIN_GRACE_MS = 1_000;

/**
 * One worker of `svc serve --workers N` (cli/cluster-primary.ts): a whole Svc node on the database the
 * primary prepared, so it neither migrates nor seeds. It listens on the shared port (node:cluster hands
 * it connections) and reports `ready` or `failed` to the primary. It stops gracefully on SIGTERM (the
 * primary's stop), drains on the primary's `drain` (a rolling restart), and stops when the primary is
 * gone: the primary holds the listening socket, so a worker without it can serve nothing new.
 */
export async function serveWorker(options: SvcOptions): Promise<void> {
  // Ctrl+C and a closing terminal signal every process of the group: the primary alone decides, and it
  // stops (SIGINT) or restarts (SIGHUP) the workers in order.
  process.on('SIGINT', () => undefined);
  process.on('SIGHUP', () => undefined);
  let svc: Svc | undefined;
  try {
    svc = await createSvc({ ...options, migrateOnStart: false, seedDemo: false });
    const running = svc;
    keepServingOnStrayErrors(running.app.log);
    let stopping = false;
    const stop = (close: () => Promise<void>) => {
      if (stopping) return;
      stopping = true;
      close().then(
        () => process.exit(0),
        (error: unknown) => {
          running.app.log.error({ err: error }, 'worker stop failed');
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', () => stop(() => running.close()));
    process.on('disconnect', () => stop(() => running.close()));
    process.on('message', (message) => {
      if (isDrainOrder(message)) stop(() => drain(running));
    });
    report({ svc: 'ready', address: await running.listen() });
  } catch (error) {
    await svc?.close().catch(() => undefined);
    report({ svc: 'failed', message: cliMessage(error) }, () => process.exit(1));
  }
}

function report(message: WorkerReport, then?: () => void): void {
  if (process.send === undefined) throw new Error('serveWorker runs only in a cluster worker.');
  process.send(message, undefined, {}, () => then?.());
}

/**
 * Hands the worker's connections over without failing a request: it stops accepting (node:cluster sends
 * new connections to the other workers), answers every request still arriving on an open connection
 * with `Connection: close` so that its client reconnects elsewhere, and closes once they are gone or
 * after DRAIN_GRACE_MS (requests in flight then finish as in any graceful close).
 */
async function drain(svc: Svc): Promise<void> {
  const server = svc.app.server;
  server.prependListener('request', (_request, response) => {
    response.shouldKeepAlive = false;
  });
  // net.Server's close, not http.Server's: the latter also destroys the idle keep-alive connections at
  // once, and a client sending its next request on one at that moment would see it reset.
  const connectionsGone = new Promise<void>((resolve) =>
    Server.prototype.close.call(server, () => resolve()),
  );
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_GRACE_MS)));
  await Promise.race([connectionsGone, grace]);
  clearTimeout(timer);
  await svc.close();
}
