import { X509Certificate } from 'node:crypto';
import {
  auditEventPageSchema,
  pageSchema,
  svcSsoConnectionListItemSchema,
  svcSsoConnectionSchema,
  type SvcSsoConnection,
} from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { samlTestKeys, type SamlTestKeys } from '../test-support/federation/saml-certificates.js';
import { startSamlPeer, type SamlPeer } from '../test-support/federation/saml-peer.js';
import { operatorApi, type OperatorMethod } from '../test-support/operator-api.js';
import { createTestSvc, TEST_ORIGIN, type TestSvc } from '../test-support/test-svc.js';

const API = '/svc/admin/auth/api';
const strictConnection = svcSsoConnectionSchema.strict();

/**
 * The operator routes of SAML SSO connections (docs/reference/federation.md "SAML connections") and the
 * SP metadata route, over HTTP on both databases.
 */
describeEachDatabase('SSO connection operator routes', (kind) => {
  let t: TestSvc;
  let keys: SamlTestKeys;
  let peer: SamlPeer;
  let organizationId: string;

  beforeAll(async () => {
    [t, keys] = await Promise.all([createTestSvc(kind), samlTestKeys()]);
    peer = await startSamlPeer(keys, t.clock);
    organizationId = (await t.svc.admin.createOrganizationAsync({ name: 'Acme' })).id;
  });
  afterAll(async () => {
    await peer.close();
    await t.close();
  });

  const call = operatorApi(API, () => t, { ordered: true });
  const draft = async (body: unknown = { displayName: 'Acme SSO' }): Promise<SvcSsoConnection> => {
    const response = await call('POST', `/organizations/${organizationId}/sso-connections`, body);
    expect(response.status, response.text).toBe(201);
    return strictConnection.parse(response.body);
  };
  const importMetadata = async (id: string, body: unknown) => {
    const response = await call('POST', `/sso-connections/${id}/metadata`, body);
    return { status: response.status, body: response.body };
  };

  it('answers 404 without the operator token, on every route, and creates or changes nothing', async () => {
    const existing = await draft();
    const routes: [OperatorMethod, string, unknown][] = [
      ['GET', `/organizations/${organizationId}/sso-connections`, undefined],
      ['GET', '/sso-connections', undefined],
      ['POST', `/organizations/${organizationId}/sso-connections`, { displayName: 'Leak' }],
      ['GET', `/sso-connections/${existing.id}`, undefined],
      ['POST', `/sso-connections/${existing.id}/metadata`, { metadataXml: peer.metadata() }],
      ['POST', `/sso-connections/${existing.id}/enable`, undefined],
      ['POST', `/sso-connections/${existing.id}/disable`, undefined],
    ];
    for (const [method, path, payload] of routes) {
      const response = await call(method, path, payload, false);
      expect({ status: response.status, body: response.body }, `${method} ${path}`).toEqual({
        status: 404,
        body: NOT_FOUND_BODY,
      });
    }
    expect(await t.svc.admin.getSsoConnectionAsync(existing.id)).toEqual(existing);
  });

  it('creates a disabled draft with its SP entity id and ACS URL, reads and lists it', async () => {
    const created = await draft({
      DisplayName: ' Acme Okta ',
      primaryDomain: 'Acme.Test',
      autoProvisionUsers: true,
    });
    expect(created).toMatchObject({
      organizationId,
      displayName: 'Acme Okta',
      primaryDomain: 'acme.test',
      autoProvisionUsers: true,
      autoLinkByEmail: false,
      enabled: false,
      spEntityId: `${TEST_ORIGIN}/svc/auth/saml/metadata/${created.id}`,
      acsUrl: `${TEST_ORIGIN}/svc/auth/saml/acs/${created.id}`,
      idpEntityId: null,
      idpSsoUrl: null,
      idpCertificates: [],
      metadataImportedAt: null,
    });
    expect(strictConnection.parse((await call('GET', `/sso-connections/${created.id}`)).body)).toEqual(
      created,
    );
    const list = pageSchema(strictConnection).parse(
      (await call('GET', `/organizations/${organizationId}/sso-connections?limit=200`)).body,
    );
    expect(list.data[0]).toEqual(created);
  });

  it("lists every organization's connections with their organization, filtered by organization and enabled", async () => {
    const other = await t.svc.admin.createOrganizationAsync({ name: 'Globex' });
    const response = await call('POST', `/organizations/${other.id}/sso-connections`, {
      displayName: 'Globex SSO',
    });
    const globex = strictConnection.parse(response.body);
    const list = pageSchema(svcSsoConnectionListItemSchema.strict());
    const everything = list.parse((await call('GET', '/sso-connections?limit=200')).body);
    expect(everything.data[0]).toEqual({ ...globex, organization: { id: other.id, name: 'Globex' } });
    expect(new Set(everything.data.map((c) => c.organization.name))).toEqual(new Set(['Acme', 'Globex']));
    const perOrganization = pageSchema(strictConnection).parse(
      (await call('GET', `/organizations/${organizationId}/sso-connections?limit=200`)).body,
    );
    expect(everything.data.filter((c) => c.organizationId === organizationId)).toEqual(
      perOrganization.data.map((c) => ({ ...c, organization: { id: organizationId, name: 'Acme' } })),
    );
    const drafts = list.parse(
      (await call('GET', `/sso-connections?organizationId=${other.id}&enabled=false`)).body,
    );
    expect(drafts.data.map((c) => c.id)).toEqual([globex.id]);
    expect((await call('GET', `/sso-connections?organizationId=${other.id}&enabled=true`)).body).toEqual({
      data: [],
      nextCursor: null,
    });
    expect((await call('GET', '/sso-connections?organizationId=org_missing')).body).toEqual({
      data: [],
      nextCursor: null,
    });
    const first = list.parse((await call('GET', '/sso-connections?limit=1')).body);
    const second = list.parse(
      (await call('GET', `/sso-connections?limit=1&cursor=${first.nextCursor ?? ''}`)).body,
    );
    expect([...first.data, ...second.data].map((c) => c.id)).toEqual(
      everything.data.slice(0, 2).map((c) => c.id),
    );
    const bad = await call('GET', '/sso-connections?enabled=yes');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('enabled');
  });

  it('refuses bad bodies naming the field, and unknown organizations and connections with 404', async () => {
    const bad = await call('POST', `/organizations/${organizationId}/sso-connections`, {
      primaryDomain: 'not a domain',
    });
    expect(bad.status).toBe(400);
    expect((bad.body.details as { path: string }[]).map((d) => d.path).sort()).toEqual([
      'displayName',
      'primaryDomain',
    ]);
    for (const [method, path, payload] of [
      ['POST', '/organizations/org_missing/sso-connections', { displayName: 'X' }],
      ['GET', '/organizations/org_missing/sso-connections', undefined],
      ['GET', '/sso-connections/sso_missing', undefined],
      ['POST', '/sso-connections/sso_missing/metadata', { metadataXml: peer.metadata() }],
      ['POST', '/sso-connections/sso_missing/enable', undefined],
    ] as const) {
      expect((await call(method, path, payload)).status, `${method} ${path}`).toBe(404);
    }
  });

  it('serves the SP metadata of a connection (a draft too) to configure the IdP with', async () => {
    const created = await draft();
    const response = await call('GET', `/svc/auth/saml/metadata/${created.id}`, undefined, false);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/samlmetadata+xml; charset=utf-8');
    expect(response.text).toContain(`entityID="${created.spEntityId}"`);
    expect(response.text).toContain(
      `Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${created.acsUrl}"`,
    );
    expect(response.text).toContain('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    expect((await call('GET', `/svc/auth/saml/metadata/${created.id}`)).text).toBe(response.text);
    const unknown = await call('GET', '/svc/auth/saml/metadata/sso_missing', undefined, false);
    expect(unknown.status).toBe(404);
  });

  it('imports metadata: enables unless told not to; enable needs metadata (409); disable and enable toggle', async () => {
    const created = await draft();
    expect((await call('POST', `/sso-connections/${created.id}/enable`)).status).toBe(409);

    const kept = await importMetadata(created.id, { metadataXml: peer.metadata(), enableConnection: false });
    expect(kept.status).toBe(200);
    const certificate = new X509Certificate(keys.current.certificate);
    expect(strictConnection.parse(kept.body)).toMatchObject({
      enabled: false,
      idpEntityId: peer.entityId,
      idpSsoUrl: peer.ssoUrl,
      idpCertificates: [
        {
          subject: 'CN=svc-test-idp-current',
          notAfter: new Date(certificate.validTo).toISOString(),
          fingerprintSha256: certificate.fingerprint256,
        },
      ],
      metadataImportedAt: new Date(t.clock.now()).toISOString(),
    });

    const enabled = (await call('POST', `/sso-connections/${created.id}/enable`)).body;
    expect(enabled.enabled).toBe(true);
    expect((await call('POST', `/sso-connections/${created.id}/enable`)).body.enabled).toBe(true);
    const reimported = await importMetadata(created.id, {
      MetadataXml: peer.metadata([keys.current, keys.next]),
      enableConnection: false,
    });
    expect(reimported.body).toMatchObject({ enabled: true });
    expect(reimported.body.idpCertificates).toHaveLength(2);
    expect((await call('POST', `/sso-connections/${created.id}/disable`)).body.enabled).toBe(false);
    expect((await importMetadata(created.id, { metadataXml: peer.metadata() })).body).toMatchObject({
      enabled: true,
      idpCertificates: [{ subject: 'CN=svc-test-idp-current' }],
    });
  });

  it('answers 400 with a clear message for metadata that is missing, not XML or not usable', async () => {
    const created = await draft();
    const cases: [unknown, string][] = [
      [{}, 'metadataXml'],
      [{ metadataXml: '   ' }, 'metadataXml'],
      [{ metadataXml: '<html>not metadata' }, 'Invalid SAML metadata: it is not well-formed XML'],
      [{ metadataXml: '<html/>' }, 'Invalid SAML metadata: the document is not SAML 2.0 metadata'],
      [
        { metadataXml: peer.metadata().replace(/<KeyDescriptor[\s\S]*<\/KeyDescriptor>/, '') },
        'Invalid SAML metadata: the IDPSSODescriptor has no signing certificate',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await importMetadata(created.id, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: 'invalid_request' });
      expect(String(response.body.message)).toContain(message);
    }
    expect(await t.svc.admin.getSsoConnectionAsync(created.id)).toMatchObject({
      enabled: false,
      idpEntityId: null,
    });
  });

  it('audits creation, imports and toggles, without certificates or metadata', async () => {
    const created = await draft();
    await importMetadata(created.id, { metadataXml: peer.metadata() });
    await call('POST', `/sso-connections/${created.id}/disable`);
    const response = await t.svc.app.inject({
      method: 'GET',
      url: '/svc/admin/audit/api/events?kind=admin.sso_connection.*&limit=200',
      headers: t.operator,
    });
    const events = auditEventPageSchema
      .parse(response.json())
      .data.filter((event) => event.data.connectionId === created.id)
      // In time order; the events of one request (which share their time) by kind.
      .sort((x, y) => x.occurredAt.localeCompare(y.occurredAt) || x.kind.localeCompare(y.kind));
    expect(events.map((event) => event.kind)).toEqual([
      'admin.sso_connection.created',
      'admin.sso_connection.enabled',
      'admin.sso_connection.metadata_imported',
      'admin.sso_connection.disabled',
    ]);
    expect(events.every((event) => event.organizationId === organizationId)).toBe(true);
    expect(events.every((event) => event.actorType === 'operator')).toBe(true);
    expect(events[2]?.data).toEqual({
      connectionId: created.id,
      idpEntityId: peer.entityId,
      certificates: 1,
      source: 'xml',
    });
    expect(JSON.stringify(events)).not.toContain('BEGIN CERTIFICATE');
  });
});
