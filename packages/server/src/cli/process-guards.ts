/** Where the guards report what they caught. */
export interface GuardLog {
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * The standalone server keeps serving after an error that nothing caught: it logs it instead of exiting.
 * Svc listens for every error its own parts can raise (each database connection included), so one that
 * arrives here is a defect to report, and ending the process would turn it into an outage of the node.
 * Embedded, Svc leaves the process-level policy to its host.
 */
export function keepServingOnStrayErrors(log: GuardLog): void {
  process.on('uncaughtException', (error) => {
    log.error({ err: error }, 'uncaught exception; the server keeps serving');
  });
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'unhandled promise rejection; the server keeps serving');
  });
}
