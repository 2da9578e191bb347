import { storedUserAgent } from '../kernel/user-agent.js';

/** The part of a request that says where a browser is (Fastify's request fits). */
export interface PlacedRequest {
  readonly ip?: string;
  readonly headers?: { readonly 'user-agent'?: string | undefined };
}

/**
 * Where a sign-in's browser is: its address (audit events) and its user agent, cut to 512 characters,
 * which a token session started from its sign-in keeps. Absent values are left out.
 */
export function browserPlace(request: PlacedRequest): { ipAddress?: string; userAgent?: string } {
  const userAgent = storedUserAgent(request.headers?.['user-agent']);
  return {
    ...(request.ip === undefined ? {} : { ipAddress: request.ip }),
    ...(userAgent === undefined ? {} : { userAgent }),
  };
}
