/** What a worker tells the primary over the cluster's IPC channel. */
export type WorkerReport =
  /** Listening at `address` (as `svc serve` prints it): it takes connections from now on. */
  | { readonly svc: 'ready'; readonly address: string }
  /** It could not start (a port in use, an unreachable database…); it exits next. */
  | { readonly svc: 'failed'; readonly message: string };

/** What the primary tells a worker: hand the connections over to the other workers and exit. */
export interface DrainOrder {
  readonly svc: 'drain';
}

export function isWorkerReport(message: unknown): message is WorkerReport {
  const svc = (message as { svc?: unknown } | null)?.svc;
  return svc === 'ready' || svc === 'failed';
}

export function isDrainOrder(message: unknown): message is DrainOrder {
  return (message as { svc?: unknown } | null)?.svc === 'drain';
}
