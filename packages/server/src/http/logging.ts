import type { FastifyServerOptions } from 'fastify';
import type { LogStream } from '../config/options.js';

/** Query parameters whose values are never logged (codes, tokens, secrets travel in some of them). */
const SECRET_QUERY =
  /^(code|token|.*_token|.*token|state|code_verifier|client_secret|password|otp|user_code|device_code|handle|SAMLResponse|RelayState)$/i;

/** The request URL with secret-bearing query values replaced, so that access logs hold no secrets. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  for (const key of [...params.keys()]) if (SECRET_QUERY.test(key)) params.set(key, '[redacted]');
  return `${url.slice(0, queryAt)}?${params.toString()}`;
}

/**
 * Fastify/pino logger options: level and destination from the configuration, headers that carry
 * credentials redacted.
 */
export function loggerOptions(
  level: string | false,
  stream: LogStream | undefined,
): NonNullable<FastifyServerOptions['logger']> {
  if (level === false) return false;
  return {
    level,
    ...(stream === undefined ? {} : { stream }),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: { method: string; url: string; id: string; ip: string }) => ({
        id: request.id,
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
}
