import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import { isWorkerReport, type DrainOrder } from './cluster-messages.js';
import { RestartBackoff } from './restart-backoff.js';

/** Where the supervisor says what happens to the workers. */
export interface SupervisorLog {
  info(message: string): void;
  error(message: string): void;
}

/** A worker that exited before it listened, with the reason it gave (or how it exited). */
export class WorkerStartError extends Error {}

/**
 * The primary's side of `svc serve --workers N`: forks the workers (cli/worker.ts), replaces one that
 * dies with a backoff (cli/restart-backoff.ts), restarts them one at a time, and stops them.
 *
 * A worker is `serving` from its `ready` report until it dies or is retired; a retired worker drains
 * and exits, which is no death. Nothing is replaced while the supervisor stops.
 */
export class WorkerSupervisor {
  readonly #log: SupervisorLog;
  readonly #serving = new Set<Worker>();
  readonly #retiring = new Set<Worker>();
  readonly #backoff = new RestartBackoff();
  readonly #replacements = new Set<NodeJS.Timeout>();
  #stopping = false;
  #restarting = false;

  constructor(log: SupervisorLog) {
    this.#log = log;
  }

  /** Starts `count` workers at once; resolves with the address they listen on when all are ready. */
  async start(count: number): Promise<string> {
    const started = await Promise.all(Array.from({ length: count }, () => this.#fork()));
    for (const { worker } of started) this.#adopt(worker);
    return started[0]?.address ?? '';
  }

  /**
   * The rolling restart: for each worker serving now, fork its successor, wait until it listens, then
   * drain the old one and wait for its exit, so that as many workers serve throughout. A successor that
   * cannot start (a broken deployment, say) ends the restart with a WorkerStartError; the workers not yet
   * restarted keep serving. A restart asked for during another is ignored (resolves false).
   */
  async restartAll(): Promise<boolean> {
    if (this.#restarting) return false;
    this.#restarting = true;
    try {
      for (const old of [...this.#serving]) {
        // A worker that died meanwhile has been replaced by a new one already.
        if (this.#stopping || !this.#serving.has(old)) continue;
        const { worker } = await this.#fork();
        this.#adopt(worker);
        await this.#retire(old);
      }
      return true;
    } finally {
      this.#restarting = false;
    }
  }

  /** SIGTERM to every worker (each closes gracefully: requests in flight finish); resolves when all exited. */
  async stop(): Promise<void> {
    this.#stopping = true;
    for (const timer of this.#replacements) clearTimeout(timer);
    this.#replacements.clear();
    const workers = Object.values(cluster.workers ?? {}).filter(
      (worker): worker is Worker => worker !== undefined && !worker.isDead(),
    );
    await Promise.all(
      workers.map((worker) => {
        const exited = once(worker, 'exit');
        worker.process.kill('SIGTERM');
        return exited;
      }),
    );
  }

  /** Forks one worker: resolves once it listens, rejects with a WorkerStartError if it exits before. */
  #fork(): Promise<{ worker: Worker; address: string }> {
    const worker = cluster.fork();
    return new Promise((resolve, reject) => {
      let reason: string | undefined;
      const onMessage = (message: unknown) => {
        if (!isWorkerReport(message)) return;
        if (message.svc === 'failed') {
          reason = message.message;
          return;
        }
        worker.off('exit', onExit);
        worker.off('message', onMessage);
        resolve({ worker, address: message.address });
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        worker.off('message', onMessage);
        reject(
          new WorkerStartError(reason ?? `it exited (${describeExit(code, signal)}) before it listened`),
        );
      };
      worker.on('message', onMessage);
      worker.once('exit', onExit);
    });
  }

  #adopt(worker: Worker): void {
    this.#serving.add(worker);
    worker.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      this.#serving.delete(worker);
      if (this.#stopping || this.#retiring.has(worker)) return;
      const delay = this.#backoff.nextDelay(Date.now());
      this.#log.error(
        `worker ${worker.process.pid} died (${describeExit(code, signal)}); a replacement starts in ${delay} ms`,
      );
      this.#replaceAfter(delay);
    });
  }

  #replaceAfter(delay: number): void {
    const timer = setTimeout(() => {
      this.#replacements.delete(timer);
      this.#fork().then(
        ({ worker }) => {
          this.#adopt(worker);
          this.#log.info(`worker ${worker.process.pid} replaced it`);
        },
        (error: unknown) => {
          if (this.#stopping) return;
          const next = this.#backoff.nextDelay(Date.now());
          this.#log.error(
            `a replacement worker could not start: ${(error as Error).message}; trying again in ${next} ms`,
          );
          this.#replaceAfter(next);
        },
      );
    }, delay);
    this.#replacements.add(timer);
  }

  async #retire(worker: Worker): Promise<void> {
    this.#serving.delete(worker);
    this.#retiring.add(worker);
    const exited = once(worker, 'exit');
    const order: DrainOrder = { svc: 'drain' };
    // A worker that can no longer hear the order is stopped the plain way.
    worker.send(order, undefined, (error) => {
      if (error !== null) worker.process.kill('SIGTERM');
    });
    await exited;
    this.#retiring.delete(worker);
  }
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal === null ? `exit code ${String(code)}` : `signal ${signal}`;
}
