import { auditEventPageSchema, SSO_METADATA_MAX_LENGTH, svcSsoConnectionSchema } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../kernel/clock.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { startDnsServer, type TestDnsServer } from '../test-support/dns-server.js';
import {
  startHttpsServer,
  tlsTestCertificate,
  TLS_TEST_HOSTS,
  type HttpsTestServer,
} from '../test-support/federation/https-server.js';
import { samlTestKeys } from '../test-support/federation/saml-certificates.js';
import { startSamlPeer, type SamlPeer } from '../test-support/federation/saml-peer.js';
import { createTestSvc, TEST_ORIGIN, type TestSvc } from '../test-support/test-svc.js';

const PORTAL = '/svc/admin/auth/sso-portal';
const SETUP_API = `${PORTAL}/api/setup`;
const [HOST, OTHER_HOST] = TLS_TEST_HOSTS;

/**
 * The setup portal's metadata URL (docs/reference/federation.md "The portal API and page") against an HTTPS
 * server on loopback with a self-signed certificate, its host names answered by a DNS server on loopback: the
 * fetch that enables a connection, and each refusal. The Svc under test may fetch from 127.0.0.1/32 and
 * trusts the certificate (`ssoMetadataFetch`); a second Svc without them stands for production.
 */
describeAboveStorage('SSO setup portal: metadata from a URL', (kind) => {
  let dns: TestDnsServer;
  let server: HttpsTestServer;
  let peer: SamlPeer;
  let t: TestSvc;
  let production: TestSvc;

  beforeAll(async () => {
    const certificate = await tlsTestCertificate();
    dns = await startDnsServer();
    server = await startHttpsServer(certificate);
    const dnsOptions = { servers: [dns.address], timeoutMs: 1_000 };
    [t, production] = await Promise.all([
      createTestSvc(kind, {
        dns: dnsOptions,
        ssoMetadataFetch: {
          allowedPrivateNetworks: ['127.0.0.1/32'],
          caCertificates: [certificate.certificate],
          timeoutMs: 1_500,
        },
      }),
      createTestSvc(kind, {
        dns: dnsOptions,
        ssoMetadataFetch: { caCertificates: [certificate.certificate] },
      }),
    ]);
    peer = await startSamlPeer(await samlTestKeys(), t.clock);
    dns.setAddresses(HOST, ['127.0.0.1']);
    dns.setAddresses(OTHER_HOST, ['127.0.0.1']);
    dns.setAddresses('ten.test', ['10.1.2.3']);
    dns.setAddresses('metadata.test', ['169.254.169.254']);
    dns.setAddresses('mixed.test', ['127.0.0.1', '10.1.2.3']);
    server.serve((request, response) => {
      const path = request.url ?? '/';
      if (path.startsWith('/metadata.xml')) {
        response.setHeader('content-type', 'application/samlmetadata+xml');
        response.end(peer.metadata());
      } else if (path === '/moved') {
        response.writeHead(302, { location: `https://${HOST}:${server.port}/metadata.xml` }).end();
      } else if (path === '/slow') {
        // Never answers: the fetch's deadline ends it.
      } else if (path === '/huge') {
        // Chunked, without a length: the fetch must count the bytes as they come.
        response.write(`<?xml version="1.0"?><!-- ${'x'.repeat(SSO_METADATA_MAX_LENGTH)}`);
        response.end(' -->');
      } else {
        response.statusCode = 404;
        response.end('<html>secret internal page</html>');
      }
    });
  });
  afterAll(async () => {
    await Promise.all([t?.close(), production?.close()]);
    await Promise.all([peer?.close(), server?.close(), dns?.close()]);
  });

  const url = (path: string, host: string = HOST) => `https://${host}:${server.port}${path}`;

  /** A portal session of a new organization with one draft connection, and its API. */
  const portal = async (svc: TestSvc = t) => {
    const organization = await svc.svc.admin.createOrganizationAsync({ name: 'Acme' });
    const link = new URL((await svc.svc.admin.createSsoPortalLinkAsync(organization.id)).url);
    const started = await svc.svc.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    const cookie = `svc_sso_portal=${started.cookies.find((c) => c.name === 'svc_sso_portal')?.value ?? ''}`;
    const overview = await svc.svc.app.inject({ method: 'GET', url: SETUP_API, headers: { cookie } });
    const csrf = overview.json<{ csrfToken: string }>().csrfToken;
    const post = (path: string, payload: unknown) =>
      svc.svc.app.inject({
        method: 'POST',
        url: `${SETUP_API}${path}`,
        headers: { cookie, 'x-svc-csrf': csrf, origin: TEST_ORIGIN, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    const connection = svcSsoConnectionSchema.parse(
      (await post('/sso-connections', { displayName: 'Acme IdP' })).json(),
    );
    const importFrom = (payload: unknown) => post(`/sso-connections/${connection.id}/metadata`, payload);
    return { organization, connection, cookie, csrf, importFrom };
  };

  const refusal = (response: { statusCode: number; json: <T>() => T }) => {
    expect(response.statusCode).toBe(400);
    const body = response.json<{ error: string; message: string; details: { path: string }[] }>();
    expect(body.error).toBe('invalid_request');
    return body;
  };

  it('fetches the metadata over HTTPS, enables the connection and audits the URL host, not its query', async () => {
    const { organization, connection, importFrom } = await portal();
    const response = await importFrom({ metadataUrl: url('/metadata.xml?tenant=secret-query') });
    expect(response.statusCode, response.body).toBe(200);
    const imported = svcSsoConnectionSchema.parse(response.json());
    expect(imported).toMatchObject({ id: connection.id, enabled: true, idpEntityId: peer.entityId });
    expect(imported.idpCertificates).toHaveLength(1);
    expect(server.requests).toContain('GET /metadata.xml?tenant=secret-query');

    const events = auditEventPageSchema
      .parse(
        (
          await t.svc.app.inject({
            method: 'GET',
            url: '/svc/admin/audit/api/events?kind=admin.sso_connection.metadata_imported&limit=200',
            headers: t.operator,
          })
        ).json(),
      )
      .data.filter((event) => event.organizationId === organization.id);
    expect(events.map((event) => event.data)).toEqual([
      {
        connectionId: connection.id,
        idpEntityId: peer.entityId,
        certificates: 1,
        source: 'url',
        metadataHost: `${HOST}:${server.port}`,
      },
    ]);
    expect(JSON.stringify(events)).not.toContain('secret-query');
  });

  it('refuses what it must not fetch or cannot use with a 400 the admin can act on', async () => {
    const cases: [string, unknown, string][] = [
      ['http', { metadataUrl: `http://${HOST}:${server.port}/metadata.xml` }, 'must start with https://'],
      [
        'credentials',
        { metadataUrl: `https://admin:pw@${HOST}:${server.port}/metadata.xml` },
        'user name or password',
      ],
      ['not a URL', { metadataUrl: 'idp metadata' }, 'is not a URL'],
      ['redirect', { metadataUrl: url('/moved') }, 'answered with a redirect (302)'],
      ['404', { metadataUrl: url('/missing') }, 'answered 404 instead of the metadata'],
      ['timeout', { metadataUrl: url('/slow') }, 'took too long'],
      ['too large', { metadataUrl: url('/huge') }, `larger than ${SSO_METADATA_MAX_LENGTH} bytes`],
      [
        'unknown host',
        { metadataUrl: url('/metadata.xml', 'nowhere.test') },
        'could not be reached: it has no address',
      ],
      ['10.x', { metadataUrl: url('/metadata.xml', 'ten.test') }, 'ten.test is not a public address'],
      [
        'cloud metadata',
        { metadataUrl: url('/metadata.xml', 'metadata.test') },
        'metadata.test is not a public address',
      ],
      [
        'one private address of several',
        { metadataUrl: url('/metadata.xml', 'mixed.test') },
        'is not a public address',
      ],
      [
        'an IP literal',
        { metadataUrl: 'https://169.254.169.254/latest/meta-data' },
        'is not a public address',
      ],
      [
        'both',
        { metadataUrl: url('/metadata.xml'), metadataXml: peer.metadata() },
        'give metadataXml or metadataUrl, not both',
      ],
      ['neither', { enableConnection: true }, 'give metadataXml or metadataUrl'],
    ];
    for (const [name, payload, message] of cases) {
      // A session each: the refusals count against a session's fetches.
      const { connection, importFrom } = await portal();
      const started = Date.now();
      const body = refusal(await importFrom(payload));
      expect(JSON.stringify(body), name).toContain(message);
      expect(JSON.stringify(body), name).not.toContain('secret internal page');
      expect(JSON.stringify(body), name).not.toMatch(/10\.1\.2\.3|127\.0\.0\.1/);
      expect(Date.now() - started, name).toBeLessThan(2_000);
      const unchanged = await t.svc.admin.getSsoConnectionAsync(connection.id);
      expect(unchanged, name).toMatchObject({ enabled: false, idpEntityId: null });
    }
    expect(server.requests.filter((r) => r.includes('/huge') || r.includes('/slow'))).toHaveLength(2);
  });

  it('refuses a host that resolves to loopback where private networks are not allowed, without connecting', async () => {
    const { importFrom } = await portal(production);
    const before = server.requests.length;
    const body = refusal(await importFrom({ metadataUrl: url('/metadata.xml?production') }));
    expect(body.message).toContain(`${HOST} is not a public address`);
    expect(body.details).toEqual([expect.objectContaining({ path: 'metadataUrl' })]);
    expect(server.requests.length).toBe(before);
  });

  it('lets one portal session fetch ten times a minute (429 after), then again', async () => {
    const { importFrom } = await portal();
    for (let i = 0; i < 10; i += 1) refusal(await importFrom({ metadataUrl: url('/missing') }));
    const limited = await importFrom({ metadataUrl: url('/metadata.xml') });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json<{ message: string }>().message).toContain('Too many metadata downloads');
    // Another session is counted on its own.
    expect((await (await portal()).importFrom({ metadataUrl: url('/metadata.xml') })).statusCode).toBe(200);
    t.clock.advance(MINUTE_MS);
    expect((await importFrom({ metadataUrl: url('/metadata.xml') })).statusCode).toBe(200);
  });

  describe('the page', () => {
    it('takes the URL in the metadata form (post/redirect/get) and refuses it beside pasted XML', async () => {
      const { connection, cookie, csrf } = await portal();
      const form = (fields: Record<string, string>) =>
        t.svc.app.inject({
          method: 'POST',
          url: `${PORTAL}/setup/connections/${connection.id}/metadata`,
          headers: { cookie, origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
        });
      const both = await form({
        metadataXml: peer.metadata(),
        metadataUrl: url('/metadata.xml', OTHER_HOST),
      });
      expect(both.statusCode).toBe(400);
      expect(both.body).toContain('Give the metadata one way');
      const refused = await form({ metadataXml: '', metadataUrl: url('/missing') });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('answered 404 instead of the metadata');
      const saved = await form({ metadataXml: '', metadataUrl: url('/metadata.xml', OTHER_HOST) });
      expect(saved.statusCode, saved.body).toBe(303);
      expect(saved.headers.location).toBe(`${PORTAL}/setup?done=metadata`);
      expect(await t.svc.admin.getSsoConnectionAsync(connection.id)).toMatchObject({
        enabled: true,
        idpEntityId: peer.entityId,
      });
    });
  });
});
