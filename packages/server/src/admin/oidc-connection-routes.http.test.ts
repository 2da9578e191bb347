import { auditEventPageSchema, pageSchema, svcOidcConnectionSchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { describeAboveStorage } from '../test-support/databases.js';
import {
  oidcConnectionBody,
  pkcs8Key,
  TEST_OIDC_CALLBACK,
  TEST_OIDC_CLIENT_SECRET,
} from '../test-support/oidc-connections.js';
import { operatorApi, type OperatorMethod } from '../test-support/operator-api.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';
import { DEFAULT_PROVIDER_LOGOS } from '../federation/oidc/provider-logos.js';

const API = '/svc/admin/auth/api';
const AUDIT = '/svc/admin/audit/api';
const strictConnection = svcOidcConnectionSchema.strict();

/**
 * The operator routes of OIDC / social provider connections (docs/reference/federation.md "OIDC and social
 * connections").
 */
describeAboveStorage('OIDC connection operator routes', (kind) => {
  let t: TestSvc;
  let appleKey: string;

  beforeAll(async () => {
    t = await createTestSvc(kind);
    appleKey = await pkcs8Key('ES256');
  });
  afterAll(() => t.close());

  const call = operatorApi(API, () => t, { ordered: true });
  const create = async (payload: unknown) => {
    const response = await call('POST', '/oidc-connections', payload);
    expect(response.status, response.text).toBe(201);
    return strictConnection.parse(response.body);
  };
  /** The fields a 400 names. */
  const refused = async (method: 'POST' | 'PUT', path: string, payload: unknown) => {
    const response = await call(method, path, payload);
    expect(response.status, response.text).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_request' });
    return (response.body.details as { path: string }[]).map((detail) => detail.path);
  };
  const auditEvents = async () => {
    const url = `${AUDIT}/events?kind=admin.oidc_connection.*&limit=200`;
    const response = await t.svc.app.inject({ method: 'GET', url, headers: t.operator });
    return auditEventPageSchema.parse(response.json()).data.reverse();
  };

  it('answers 404 without the operator token, on every route, and creates nothing', async () => {
    const existing = await create(oidcConnectionBody('GitHub'));
    const routes: [OperatorMethod, string, unknown][] = [
      ['GET', '/oidc-connections', undefined],
      ['POST', '/oidc-connections', oidcConnectionBody('Google')],
      ['GET', `/oidc-connections/${existing.id}`, undefined],
      ['PUT', `/oidc-connections/${existing.id}`, oidcConnectionBody('GitHub', { displayName: 'Leak' })],
      ['DELETE', `/oidc-connections/${existing.id}`, undefined],
      ['POST', `/oidc-connections/${existing.id}/disable`, undefined],
    ];
    for (const [method, path, payload] of routes) {
      const response = await call(method, path, payload, false);
      expect(response, `${method} ${path}`).toMatchObject({ status: 404, body: NOT_FOUND_BODY });
    }
    expect(await t.svc.admin.getOidcConnectionAsync(existing.id)).toEqual(existing);
  });

  it('creates a Google connection from the fewest fields: case-insensitive type, defaults, placeholder, no secret', async () => {
    const created = await create({
      ProviderType: 'gOOgle',
      clientId: 'google-client',
      clientSecret: TEST_OIDC_CLIENT_SECRET,
      allowedCallbackUris: [`${TEST_OIDC_CALLBACK}?connection={connectionId}`],
    });
    expect(created).toMatchObject({
      providerType: 'Google',
      displayName: 'Google',
      clientSecretSet: true,
      applePrivateKeySet: false,
      allowedCallbackUris: [`${TEST_OIDC_CALLBACK}?connection=${created.id}`],
      useDiscovery: true,
      discoveryUrl: null,
      scopes: [],
      claimMapping: null,
      clientAuthMethod: 'ClientSecretPost',
      useUserInfo: null,
      logoDataUrl: null,
      organizationId: null,
      enabled: true,
      resolved: {
        protocol: 'oidc',
        discoveryUrl: 'https://accounts.google.com/.well-known/openid-configuration',
        scopes: ['openid', 'email', 'profile'],
        useUserInfo: true,
        logoDataUrl: DEFAULT_PROVIDER_LOGOS.Google,
      },
    });
    const read = await call('GET', `/oidc-connections/${created.id}`);
    expect(strictConnection.parse(read.body)).toEqual(created);
    expect(read.text).not.toContain(TEST_OIDC_CLIENT_SECRET);
  });

  it('creates each built-in with its own rules', async () => {
    const microsoft = await create(oidcConnectionBody('Microsoft'));
    expect(microsoft).toMatchObject({
      microsoftTenant: 'common',
      resolved: {
        discoveryUrl: 'https://login.microsoftonline.com/common/v2.0/.well-known/openid-configuration',
        issuerCheck: 'microsoft_tenant',
      },
    });
    const apple = await create(oidcConnectionBody('Apple', { applePrivateKeyPem: appleKey }));
    expect(apple).toMatchObject({
      clientSecretSet: false,
      applePrivateKeySet: true,
      appleTeamId: 'TEAM123456',
      resolved: { scopes: ['name', 'email'], useUserInfo: false, clientAuthMethod: 'ClientSecretPost' },
    });
    const github = await create(
      oidcConnectionBody('GitHub', { userInfoEndpoint: 'https://github.example.com/api/v3/user' }),
    );
    expect(github).toMatchObject({
      useDiscovery: false,
      resolved: {
        protocol: 'oauth_profile',
        authorizationEndpoint: 'https://github.com/login/oauth/authorize',
        emailsEndpoint: 'https://github.example.com/api/v3/user/emails',
        scopes: ['read:user', 'user:email'],
      },
    });
    const manual = await create(
      oidcConnectionBody('Custom', {
        discoveryUrl: null,
        useDiscovery: false,
        issuer: 'https://idp.example.com',
        authorizationEndpoint: 'https://idp.example.com/authorize',
        tokenEndpoint: 'https://idp.example.com/token',
        jwksUri: 'https://idp.example.com/jwks',
      }),
    );
    expect(manual.resolved).toMatchObject({ discoveryUrl: null, issuer: 'https://idp.example.com' });
  });

  it('refuses what a provider type requires or does not take, naming each field', async () => {
    const post = (payload: unknown) => refused('POST', '/oidc-connections', payload);
    expect(await post(oidcConnectionBody('Custom', { discoveryUrl: null, useDiscovery: true }))).toEqual([
      'discoveryUrl',
    ]);
    expect(await post(oidcConnectionBody('Custom', { discoveryUrl: null }))).toEqual([
      'issuer',
      'authorizationEndpoint',
      'tokenEndpoint',
      'jwksUri',
    ]);
    expect(await post(oidcConnectionBody('Google', { clientSecret: null }))).toEqual(['clientSecret']);
    expect(await post(oidcConnectionBody('Apple'))).toEqual(['applePrivateKeyPem']);
    expect(
      await post(
        oidcConnectionBody('Apple', { applePrivateKeyPem: appleKey, clientSecret: 'x', appleKeyId: null }),
      ),
    ).toEqual(['clientSecret', 'appleKeyId']);
    for (const badKey of [await pkcs8Key('ES384'), await pkcs8Key('RS256')]) {
      expect(await post(oidcConnectionBody('Apple', { applePrivateKeyPem: badKey }))).toEqual([
        'applePrivateKeyPem',
      ]);
    }
    expect(
      await post(oidcConnectionBody('GitHub', { discoveryUrl: 'https://github.com/.well-known/x' })),
    ).toEqual(['discoveryUrl']);
  });

  it('refuses malformed input with a 400 that says what to fix', async () => {
    const cases: [string, unknown, string][] = [
      ['not an object', [], '(body)'],
      ['unknown provider type', oidcConnectionBody('Google', { providerType: 'Facebook' }), 'providerType'],
      ['a number as clientId', { ...oidcConnectionBody('Google'), clientId: 5 }, 'clientId'],
      [
        'a string as the callback list',
        { ...oidcConnectionBody('Google'), allowedCallbackUris: TEST_OIDC_CALLBACK },
        'allowedCallbackUris',
      ],
      ['no callback URI', oidcConnectionBody('Google', { allowedCallbackUris: [] }), 'allowedCallbackUris'],
      [
        'a relative callback URI',
        oidcConnectionBody('Google', { allowedCallbackUris: ['/oidc/callback'] }),
        'allowedCallbackUris.0',
      ],
      [
        'plain HTTP off loopback',
        oidcConnectionBody('Google', { tokenEndpoint: 'http://idp.example.com/token' }),
        'tokenEndpoint',
      ],
      ['a string as enabled', { ...oidcConnectionBody('Google'), enabled: 'yes' }, 'enabled'],
      [
        'an unknown auth method',
        oidcConnectionBody('Google', { clientAuthMethod: 'PrivateKeyJwt' }),
        'clientAuthMethod',
      ],
      [
        'an unknown mapped claim',
        oidcConnectionBody('Google', { claimMapping: { sub: 'oid' } as never }),
        'claimMapping',
      ],
      [
        'a logo that is not a data URL',
        oidcConnectionBody('Google', { logoDataUrl: 'https://cdn.example.com/logo.png' }),
        'logoDataUrl',
      ],
      [
        'a logo that is no image',
        oidcConnectionBody('Google', { logoDataUrl: 'data:text/html;base64,PGI+' }),
        'logoDataUrl',
      ],
      [
        'an oversized logo',
        oidcConnectionBody('Google', { logoDataUrl: `data:image/png;base64,${'A'.repeat(40_000)}` }),
        'logoDataUrl',
      ],
      [
        'a PEM that is not PKCS#8',
        oidcConnectionBody('Apple', {
          applePrivateKeyPem: '-----BEGIN EC PRIVATE KEY-----\nAA\n-----END EC PRIVATE KEY-----',
        }),
        'applePrivateKeyPem',
      ],
    ];
    for (const [name, payload, field] of cases) {
      const response = await call('POST', '/oidc-connections', payload);
      expect(response.status, name).toBe(400);
      expect(response.body.message, name).toMatch(/^(Invalid|The request body)/);
      expect(
        (response.body.details as { path: string }[]).map((d) => d.path),
        name,
      ).toContain(field);
    }
    const broken = await call('POST', '/oidc-connections', '{"providerType":');
    expect(broken.status).toBe(400);
  });

  it('PUT replaces the settings, keeps omitted secrets, refuses another provider type; enable and disable', async () => {
    const created = await create(oidcConnectionBody('Custom', { claimMapping: { email: 'mail' } }));
    const path = `/oidc-connections/${created.id}`;
    const put = await call(
      'PUT',
      path,
      oidcConnectionBody('Custom', { displayName: 'Renamed', clientSecret: null }),
    );
    expect(put.status).toBe(200);
    expect(strictConnection.parse(put.body)).toMatchObject({
      displayName: 'Renamed',
      clientSecretSet: true,
      claimMapping: null,
      enabled: true,
    });
    expect((await t.svc.oidcConnections.findEnabled(created.id))?.secrets().clientSecret).toBe(
      TEST_OIDC_CLIENT_SECRET,
    );
    expect(await refused('PUT', path, oidcConnectionBody('Google'))).toEqual(['providerType']);

    const disabled = await call('POST', `${path}/disable`);
    expect(disabled.body).toMatchObject({ enabled: false });
    expect(await t.svc.oidcConnections.findEnabled(created.id)).toBeUndefined();
    expect((await call('POST', `${path}/enable`)).body).toMatchObject({ enabled: true });
    expect((await call('PUT', path, oidcConnectionBody('Custom', { enabled: false }))).body).toMatchObject({
      enabled: false,
      displayName: 'Corporate IdP',
    });

    const events = (await auditEvents()).filter((event) => event.data.connectionId === created.id);
    // In time order; the events of one request (which share their time) by kind.
    const ordered = events
      .map((event) => ({ at: event.occurredAt, kind: event.kind, changed: event.data.changed ?? null }))
      .sort((x, y) => x.at.localeCompare(y.at) || x.kind.localeCompare(y.kind));
    expect(ordered.map(({ kind, changed }) => [kind, changed])).toEqual([
      ['admin.oidc_connection.created', null],
      ['admin.oidc_connection.updated', ['displayName', 'claimMapping']],
      ['admin.oidc_connection.disabled', null],
      ['admin.oidc_connection.enabled', null],
      ['admin.oidc_connection.disabled', null],
      ['admin.oidc_connection.updated', ['displayName', 'clientSecret']],
    ]);
    expect(events.every((event) => event.actorType === 'operator')).toBe(true);
  });

  it('a read sent back with PUT changes nothing: no write, no event', async () => {
    for (const body of [
      oidcConnectionBody('Microsoft', { microsoftTenant: 'contoso.com' }),
      oidcConnectionBody('Apple', { applePrivateKeyPem: appleKey }),
      oidcConnectionBody('GitHub'),
    ]) {
      const created = await create(body);
      const before = (await auditEvents()).length;
      const put = await call('PUT', `/oidc-connections/${created.id}`, created);
      expect(put.status, put.text).toBe(200);
      expect(put.body).toEqual(created);
      expect(await auditEvents()).toHaveLength(before);
    }
  });

  it('lists in pages, deletes, and answers 404 for unknown ids', async () => {
    const first = await call('GET', '/oidc-connections?limit=1');
    const page = pageSchema(strictConnection).parse(first.body);
    expect(page.data).toHaveLength(1);
    const next = pageSchema(strictConnection).parse(
      (await call('GET', `/oidc-connections?limit=200&cursor=${page.nextCursor ?? ''}`)).body,
    );
    expect(next.data.map((c) => c.id)).not.toContain(page.data[0]?.id);
    expect((await call('GET', '/oidc-connections?limit=0')).status).toBe(400);

    const doomed = await create(oidcConnectionBody('GitHub'));
    expect(await call('DELETE', `/oidc-connections/${doomed.id}`)).toMatchObject({
      status: 200,
      body: { deleted: true },
    });
    const gone = {
      status: 404,
      body: { error: 'not_found', message: `OIDC connection '${doomed.id}' was not found.` },
    };
    for (const [method, suffix, payload] of [
      ['GET', '', undefined],
      ['PUT', '', oidcConnectionBody('GitHub')],
      ['DELETE', '', undefined],
      ['POST', '/enable', undefined],
    ] as const) {
      expect(await call(method, `/oidc-connections/${doomed.id}${suffix}`, payload)).toMatchObject(gone);
    }
    const deletedEvent = (await auditEvents()).find(
      (event) => event.kind === 'admin.oidc_connection.deleted',
    );
    expect(deletedEvent?.data).toMatchObject({ connectionId: doomed.id, providerType: 'GitHub' });
  });

  it('never writes a secret into the audit log', async () => {
    const events = JSON.stringify(await auditEvents());
    expect(events).not.toContain(TEST_OIDC_CLIENT_SECRET);
    expect(events).not.toContain('PRIVATE KEY');
  });
});
