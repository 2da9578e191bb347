import { auditEventPageSchema, svcSsoConnectionSchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { startDnsServer, type TestDnsServer } from '../test-support/dns-server.js';
import {
  startHttpsServer,
  tlsTestCertificate,
  TLS_TEST_HOSTS,
  type HttpsTestServer,
} from '../test-support/federation/https-server.js';
import { samlTestKeys } from '../test-support/federation/saml-certificates.js';
import { startSamlPeer, type SamlPeer } from '../test-support/federation/saml-peer.js';
import { operatorApi } from '../test-support/operator-api.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

const API = '/svc/admin/auth/api';
const [HOST] = TLS_TEST_HOSTS;

/**
 * The operators' import of IdP metadata from its URL (docs/reference/federation.md "SAML connections"), on
 * both databases, against an HTTPS server on loopback whose host a DNS server on loopback answers (the Svc
 * under test may fetch from 127.0.0.1/32 and trusts the server's certificate). The fetch's refusals are
 * the setup portal's, tested with it; here: the import, its audit, and what is refused before any fetch.
 */
describeEachDatabase('SSO metadata URL operator route', (kind) => {
  let dns: TestDnsServer;
  let server: HttpsTestServer;
  let peer: SamlPeer;
  let t: TestSvc;
  let organizationId: string;

  beforeAll(async () => {
    const certificate = await tlsTestCertificate();
    [dns, server] = await Promise.all([startDnsServer(), startHttpsServer(certificate)]);
    t = await createTestSvc(kind, {
      dns: { servers: [dns.address], timeoutMs: 1_000 },
      ssoMetadataFetch: {
        allowedPrivateNetworks: ['127.0.0.1/32'],
        caCertificates: [certificate.certificate],
      },
    });
    peer = await startSamlPeer(await samlTestKeys(), t.clock);
    dns.setAddresses(HOST, ['127.0.0.1']);
    server.serve((request, response) => {
      if (request.url === '/metadata.xml') response.end(peer.metadata());
      else response.writeHead(404).end();
    });
    organizationId = (await t.svc.admin.createOrganizationAsync({ name: 'Acme' })).id;
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([peer?.close(), server?.close(), dns?.close()]);
  });

  const call = operatorApi(API, () => t);
  const url = (path: string) => `https://${HOST}:${server.port}${path}`;
  const draft = () => t.svc.admin.createSsoConnectionDraftAsync({ organizationId, displayName: 'Acme IdP' });
  const importFrom = (id: string, payload: unknown, authorized = true) =>
    call('POST', `/sso-connections/${id}/metadata-url`, payload, authorized);

  it('fetches the metadata, imports it as the XML import does, and audits the host', async () => {
    const connection = await draft();
    const response = await importFrom(connection.id, { MetadataUrl: url('/metadata.xml') });
    expect(response.status, response.text).toBe(200);
    const imported = svcSsoConnectionSchema.strict().parse(response.body);
    expect(imported).toMatchObject({ id: connection.id, enabled: true, idpEntityId: peer.entityId });
    expect(imported).toEqual(await t.svc.admin.getSsoConnectionAsync(connection.id));

    const events = await call('GET', `/svc/admin/audit/api/events?subjectId=${connection.id}`);
    const kinds = auditEventPageSchema.parse(events.body).data.map((event) => [event.kind, event.data]);
    expect(kinds).toContainEqual([
      'admin.sso_connection.metadata_imported',
      expect.objectContaining({ source: 'url', metadataHost: `${HOST}:${server.port}` }),
    ]);

    // enableConnection: false imports without enabling, as the XML import does.
    const quiet = await draft();
    const kept = await importFrom(quiet.id, { metadataUrl: url('/metadata.xml'), enableConnection: false });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body).toMatchObject({ enabled: false, idpEntityId: peer.entityId });
  });

  it('refuses a URL it will not fetch, or what it fetched, with a 400 naming metadataUrl', async () => {
    const connection = await draft();
    const before = server.requests.length;
    for (const [metadataUrl, message] of [
      [`http://${HOST}/metadata.xml`, 'must start with https://'],
      ['', 'must hold the https URL'],
    ] as const) {
      const response = await importFrom(connection.id, { metadataUrl });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body), metadataUrl).toContain(message);
      expect(response.body).toMatchObject({ details: [{ path: 'metadataUrl' }] });
    }
    expect(server.requests.length).toBe(before);
    const missing = await importFrom(connection.id, { metadataUrl: url('/missing.xml') });
    expect(missing).toMatchObject({ status: 400, body: { details: [{ path: 'metadataUrl' }] } });
    expect(await t.svc.admin.getSsoConnectionAsync(connection.id)).toMatchObject({ idpEntityId: null });
  });

  it('answers 404 for an unknown connection without fetching, and to a caller without the token', async () => {
    const before = server.requests.length;
    const unknown = await importFrom('sso_unknown', { metadataUrl: url('/metadata.xml') });
    expect(unknown.status).toBe(404);
    const connection = await draft();
    const stranger = await importFrom(connection.id, { metadataUrl: url('/metadata.xml') }, false);
    expect({ status: stranger.status, body: stranger.body }).toEqual({ status: 404, body: NOT_FOUND_BODY });
    expect(server.requests.length).toBe(before);
    expect(await t.svc.admin.getSsoConnectionAsync(connection.id)).toMatchObject({ idpEntityId: null });
  });
});
