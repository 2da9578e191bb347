import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SvcOptions } from '../../config/options.js';
import { TestUserAgent } from './user-agent.js';

/**
 * The Svc options of a test whose providers run on loopback: the operator's explicit opt-in, which
 * development mode does not give (docs/decisions/federation-provider-destinations.md).
 */
export const PROVIDERS_ON_LOOPBACK = { allowInsecureLoopback: true } as const satisfies SvcOptions;

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

/** A test provider's HTTP server on 127.0.0.1 and a random port, with the requests it has seen. */
export interface LoopbackServer {
  readonly origin: string;
  /** `METHOD /path` (no query) of every request, in order. */
  readonly requests: string[];
  /** How many requests were `METHOD /path` (or just `/path`, any method). */
  count(request: string): number;
  /** Sets what serves the requests (a provider whose issuer needs the port is made after listening). */
  serve(handler: RequestHandler): void;
  close(): Promise<void>;
}

export async function startLoopbackServer(): Promise<LoopbackServer> {
  let handler: RequestHandler = (_request, response) => {
    response.statusCode = 503;
    response.end();
  };
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method ?? 'GET'} ${(request.url ?? '/').split('?')[0] ?? '/'}`);
    Promise.resolve(handler(request, response)).catch((error: unknown) => {
      if (!response.headersSent) response.statusCode = 500;
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    count: (request) =>
      requests.filter((seen) => (request.includes(' ') ? seen === request : seen.endsWith(` ${request}`)))
        .length,
    serve: (next) => {
      handler = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The request's body as text. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Answers JSON with `status`. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.setHeader('cache-control', 'no-store');
  response.end(JSON.stringify(body));
}

/** What the user does at the provider's consent screen besides signing in and agreeing. */
export interface ConsentChoices {
  /** Refuses: the provider answers `access_denied`. */
  readonly deny?: boolean;
  /** Unticks these scopes (Google's granular consent): the grant leaves them out. */
  readonly withhold?: readonly string[];
}

/**
 * Follows an authorization URL at an oidc-provider-based test provider as `accountId`: every interaction
 * page on the way signs that account in and consents (as `choices` say). Answers the callback URL the
 * provider sends the browser to (with `code`, `state` and `iss`, or an `error`).
 */
export async function signInAtOidcProvider(
  authorizationUrl: string | URL,
  origin: string,
  accountId: string,
  agent = new TestUserAgent(),
  choices: ConsentChoices = {},
): Promise<URL> {
  const result = await agent.follow(authorizationUrl, origin, (location) => {
    if (!location.pathname.includes('/interaction/')) return location;
    const signed = new URL(location);
    signed.searchParams.set('account', accountId);
    if (choices.deny === true) signed.searchParams.set('deny', '1');
    if (choices.withhold !== undefined) signed.searchParams.set('withhold', choices.withhold.join(' '));
    return signed;
  });
  if ('location' in result) return result.location;
  const body = await result.response.text();
  throw new Error(`The provider stopped at ${result.response.status}: ${body.slice(0, 500)}`);
}
