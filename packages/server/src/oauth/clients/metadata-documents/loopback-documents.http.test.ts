import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SvcOptions } from '../../../config/options.js';
import { CLIENT_REDIRECT_URI, authorizeQuery } from '../../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import {
  startLoopbackServer,
  type LoopbackServer,
} from '../../../test-support/federation/loopback-server.js';
import { createHostedTestApp, type HostedTestApp } from '../../../test-support/hosted-test-app.js';

/**
 * A document on this machine is fetched only when the operator says so with the setting meant for it,
 * `SVC_CIMD_ALLOW_LOOPBACK`: not by development mode, nor by `SVC_ALLOW_INSECURE_LOOPBACK`, which is
 * about the provider endpoints an operator configures (docs/decisions/http-server-side-fetches-never-loopback.md).
 */
describeAboveStorage('Client ID Metadata Documents on this machine', (kind) => {
  let site: LoopbackServer;
  const apps: HostedTestApp[] = [];
  const app = async (options: SvcOptions) => {
    const h = await createHostedTestApp(kind, { development: true, ...options });
    apps.push(h);
    return h;
  };
  const authorize = (h: HostedTestApp, clientId: string) =>
    h.inject({
      method: 'GET',
      url: `${h.authBase}/authorize?${new URLSearchParams(authorizeQuery(clientId))}`,
    });

  beforeAll(async () => {
    site = await startLoopbackServer();
    site.serve((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          client_id: `${site.origin}${request.url ?? ''}`,
          redirect_uris: [CLIENT_REDIRECT_URI],
        }),
      );
    });
  });
  afterAll(async () => {
    for (const h of apps) await h.close();
    await site.close();
  });

  it('are refused in development with SVC_ALLOW_INSECURE_LOOPBACK on, over http and https alike, and never fetched', async () => {
    const h = await app({ allowInsecureLoopback: true, clientIdMetadataDocuments: { enabled: true } });
    const plain = await authorize(h, `${site.origin}/plain.json`);
    expect(plain.statusCode).toBe(400);
    expect(plain.body).toContain('it must use https');
    const tls = await authorize(h, `${site.origin.replace('http:', 'https:')}/tls.json`);
    expect(tls.statusCode).toBe(400);
    expect(tls.body).toContain('its host 127.0.0.1 is not a public address');
    const named = await authorize(
      h,
      `${site.origin.replace('http://127.0.0.1', 'https://[::ffff:7f00:1]')}/v6.json`,
    );
    expect(named.statusCode).toBe(400);
    expect(site.requests).toEqual([]);
  });

  it('are fetched from a loopback host with SVC_CIMD_ALLOW_LOOPBACK', async () => {
    const h = await app({ clientIdMetadataDocuments: { enabled: true, allowLoopback: true } });
    const response = await authorize(h, `${site.origin}/opted-in.json`);
    expect(response.statusCode, response.body).toBe(302);
    expect(site.count('/opted-in.json')).toBe(1);
  });
});
