import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { CustomFetchOptions } from 'oauth4webapi';
import type { SvcOptions } from '../config/options.js';
import { createHostedTestApp, type HostedTestApp } from './hosted-test-app.js';
import { oauthTestApp } from './oauth-http.js';
import { freePort } from './postgres-launcher.js';

/** A fetch for oauth4webapi's `customFetch` option. */
export type InjectFetch = (url: string, options: CustomFetchOptions<string, unknown>) => Promise<Response>;

export interface ServedHostedApp {
  readonly hosted: HostedTestApp;
  /** The public origin the browser uses (`http://127.0.0.1:<port>`), where the hosted pages listen. */
  readonly origin: string;
  readonly issuer: string;
  /** The client's redirect URI, served by a tiny callback page on another port. */
  readonly callbackUri: string;
  /**
   * The client's back channel (discovery, JWKS, /token, /userinfo) as oauth4webapi's customFetch: these run in the OAuth test app over the same services.
   */
  readonly fetch: InjectFetch;
  close(): Promise<void>;
}

function headerRecord(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]),
  );
}

function injectFetch(app: FastifyInstance): InjectFetch {
  return async (url, options) => {
    const target = new URL(url);
    const body = options.body;
    const response = await app.inject({
      method: options.method as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: options.headers,
      ...(body === undefined || body === null ? {} : { payload: String(body) }),
    });
    const empty = response.statusCode === 204 || response.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(response.rawPayload), {
      status: response.statusCode,
      headers: headerRecord(response.headers),
    });
  };
}

/**
 * The hosted sign-in app listening on a real loopback port (the public origin equals the origin the
 * browser uses, so antiforgery and cookies behave as in production), a fake clock started at the real
 * time (so a real client's token checks agree with it), and a callback page for the client. `options`
 * go to the service (for example `smtpUrl`); the public origin is always the served one.
 */
export async function serveHostedApp(options: SvcOptions = {}): Promise<ServedHostedApp> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const hosted = await createHostedTestApp('sqlite', { ...options, publicOrigin: origin });
  hosted.t.clock.set(Date.now());
  const backChannel = await oauthTestApp(hosted.t);
  const callback: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Client callback</title><p>Back at the client.</p>');
  });
  try {
    await hosted.app.listen({ port, host: '127.0.0.1' });
    const callbackPort = await new Promise<number>((resolve) => {
      callback.listen(0, '127.0.0.1', () => {
        const address = callback.address();
        resolve(typeof address === 'object' && address !== null ? address.port : 0);
      });
    });
    return {
      hosted,
      origin,
      issuer: hosted.t.svc.config.issuer,
      callbackUri: `http://127.0.0.1:${callbackPort}/callback`,
      fetch: injectFetch(backChannel),
      async close() {
        await new Promise((resolve) => callback.close(resolve));
        await backChannel.close();
        await hosted.close();
      },
    };
  } catch (error) {
    callback.close();
    await backChannel.close();
    await hosted.close();
    throw error;
  }
}
