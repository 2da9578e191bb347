import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  SvcError,
  SvcMfaRequiredError,
  SvcTooManyAttemptsError,
  SvcUnavailableError,
  SvcValidationError,
} from '../kernel/errors.js';

/** The body of every not-found answer, so that an unauthorized admin call is indistinguishable from it. */
export const NOT_FOUND_BODY = Object.freeze({ error: 'not_found', message: 'Not found.' });

export function sendNotFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).header('cache-control', 'no-store').send(NOT_FOUND_BODY);
}

export interface MappedError {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly details?: readonly { path: string; message: string }[];
  /** A refused attempt's wait: sent as `Retry-After`. */
  readonly retryAfterSeconds?: number;
  /** Fields of a refused attempt (or of an MFA state) that JSON bodies carry beside `error` and `message`. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** Fastify's own 4xx codes, in words a caller can act on. */
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type; send application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body.',
  FST_ERR_CTP_INVALID_TYPE: 'The Content-Type header is not valid.',
  FST_ERR_BAD_URL: 'The request URL is not valid.',
};

/**
 * Maps any thrown value onto a status, a stable code and a safe message. Unknown errors become a bare
 * 500 (logged once by the caller with the request id); their messages never reach the client.
 */
export function mapError(error: unknown): MappedError {
  if (error instanceof SvcValidationError) {
    return { status: 400, code: error.code, message: error.message, details: error.details };
  }
  if (error instanceof SvcTooManyAttemptsError || error instanceof SvcUnavailableError) {
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      retryAfterSeconds: error.retryAfterSeconds,
      ...(error instanceof SvcTooManyAttemptsError ? { extra: error.extra } : {}),
    };
  }
  if (error instanceof SvcMfaRequiredError) {
    return { status: error.status, code: error.code, message: error.message, extra: error.extra };
  }
  if (error instanceof SvcError) {
    return error.expose
      ? { status: error.status, code: error.code, message: error.message }
      : { status: error.status, code: 'server_error', message: 'Internal server error.' };
  }
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message =
      (fastifyError.code !== undefined ? FASTIFY_MESSAGES[fastifyError.code] : undefined) ??
      (status === 413 ? 'The request body is too large.' : 'The request is not valid.');
    return {
      status,
      code:
        status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'invalid_request',
      message,
    };
  }
  return { status: 500, code: 'server_error', message: 'Internal server error.' };
}

/**
 * Logs unexpected errors once with the request id; expected 4xx outcomes are not errors of the service.
 * An outage is logged as a warning with its cause only: during one, every request would log a stack.
 */
export function logIfUnexpected(
  request: FastifyRequest,
  error: unknown,
  mapped: Pick<MappedError, 'status'>,
): void {
  if (error instanceof SvcUnavailableError) {
    request.log.warn({ reqId: request.id, cause: error.detail }, 'database unavailable');
  } else if (mapped.status >= 500) {
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
  }
}

/** The error handler of JSON surfaces that answer `{ error, message }` (admin, direct helpers). */
export function jsonErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const mapped = mapError(error);
  logIfUnexpected(request, error, mapped);
  return sendMappedJson(reply.header('cache-control', 'no-store'), mapped);
}

/** `{ error, message }` (with `details` or a refused attempt's fields) and `Retry-After` when it has one. */
export function sendMappedJson(reply: FastifyReply, mapped: MappedError): FastifyReply {
  const body: Record<string, unknown> = { ...mapped.extra, error: mapped.code, message: mapped.message };
  if (mapped.details !== undefined && mapped.details.length > 0) body.details = mapped.details;
  if (mapped.retryAfterSeconds !== undefined) reply.header('retry-after', String(mapped.retryAfterSeconds));
  return reply.code(mapped.status).send(body);
}
