import type { FastifyReply, FastifyRequest } from 'fastify';
import type {
  AuthorizeActionOutcome,
  AuthorizeStep,
  BrowserContext,
} from '../../signin/flow/authorize-outcomes.js';
import { HOSTED_FIELDS } from '../form.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { sendActionOutcome, sendStep } from './outcome-reply.js';
import { browserContext, singleValue } from './request-values.js';

/**
 * What a hosted step reads from a request: the `request_id`, the browser it comes from, and any other
 * field by name (one string value each, see singleValue). A page reads the query, a post its form.
 */
export type StepCall<T> = (
  requestId: string | undefined,
  browser: BrowserContext,
  field: (name: string) => string | undefined,
) => Promise<T>;

function call<T>(step: StepCall<T>, source: unknown, request: FastifyRequest): Promise<T> {
  return step(singleValue(source, HOSTED_FIELDS.requestId), browserContext(request), (name) =>
    singleValue(source, name),
  );
}

/** A GET handler that renders the step `step` returns for the query's request. */
export function showStep(deps: HostedSignInDeps, step: StepCall<AuthorizeStep>) {
  return async (request: FastifyRequest, reply: FastifyReply) =>
    sendStep(reply, request, deps, await call(step, request.query, request));
}

/**
 * A form post handler that runs one step with the posted fields and answers its outcome: 303 to the next
 * step or the client, or the page again with an inline error (see sendActionOutcome).
 */
export function runStep(deps: HostedSignInDeps, step: StepCall<AuthorizeActionOutcome>) {
  return async (request: FastifyRequest, reply: FastifyReply) =>
    sendActionOutcome(reply, request, deps, await call(step, request.body, request));
}
