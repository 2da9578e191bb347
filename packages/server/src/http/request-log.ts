import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Clock } from '../kernel/clock.js';

/** When Fastify routed the request, on the injected clock. */
const ROUTED_AT = Symbol('svc.routedAt');
type RoutedRequest = FastifyRequest & { [ROUTED_AT]: number };

export interface RequestLogOptions {
  readonly clock: Clock;
  /** One `request completed` line at info per request. */
  readonly accessLog: boolean;
  /** At least this many milliseconds from routing to the response's end: a `slow request` line at warn. */
  readonly slowRequestMs: number;
}

/**
 * The standalone server's per-request log lines, in place of Fastify's two at info per request
 * (`incoming request` and `request completed`, about 390 bytes of JSON a request, which cost a third of
 * discovery's throughput in production). A request that succeeds in time writes nothing; one whose
 * response fails writes an error, and one slower than `slowRequestMs` a warning. The access log, when
 * asked for, is one line per request, written when it completes. Errors the routes map (a 500, the
 * database away) and refused hosted forms are logged by the surfaces' error mappers, and security events
 * (failed sign-ins, client authentication, throttling, operator actions) are in the audit log, so none of
 * them needs a line per request here.
 *
 * Durations are read from the injected clock, so tests move time instead of waiting for it.
 */
export class RequestLog extends LogController {
  readonly #options: RequestLogOptions;

  constructor(options: RequestLogOptions) {
    super();
    this.#options = options;
  }

  /** Every request that lands on a route: the routing time is kept, nothing is written. */
  override incomingRequest(request: FastifyRequest): void {
    (request as RoutedRequest)[ROUTED_AT] = this.#options.clock.now();
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const routedAt = (request as RoutedRequest)[ROUTED_AT];
    const responseTime = this.#options.clock.now() - routedAt;
    if (error !== null && error !== undefined) {
      reply.log.error({ req: request, res: reply, err: error, responseTime }, 'request errored');
    } else if (this.#options.accessLog) {
      reply.log.info({ req: request, res: reply, responseTime }, 'request completed');
    }
    // A request Fastify answered before routing it (a server closing) has no routing time.
    if (routedAt !== 0 && responseTime >= this.#options.slowRequestMs) {
      reply.log.warn({ req: request, res: reply, responseTime }, 'slow request');
    }
  }

  /**
   * Declares the routing time on every request the app builds, so that each request object has the
   * same shape from its construction; call before any route is added.
   */
  static declareOn(app: FastifyInstance): void {
    app.decorateRequest(ROUTED_AT, 0);
  }
}
