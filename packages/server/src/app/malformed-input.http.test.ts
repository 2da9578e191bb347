import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../storage/paging.js';
import { createTestSvc, TEST_ADMIN_TOKEN, TEST_ORIGIN, type TestSvc } from '../test-support/test-svc.js';

/**
 * Every route of this release answers malformed input with a 4xx and a `{ error, message }` body whose
 * message names the field at fault, never a 5xx. The cases are generated from the tables below.
 */

const ADMIN = '/svc/admin/auth/api';
const AUDIT = '/svc/admin/audit/api';
const OPERATOR = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const JSON_TYPE = { 'content-type': 'application/json' };

interface Case {
  readonly name: string;
  readonly request: InjectOptions;
  /** The exact status when it matters; any 4xx otherwise. */
  readonly status?: number;
  /** The field the message must name. */
  readonly field?: string;
  /** The exact error code when it matters. */
  readonly error?: string;
}

/** A JSON number literal that JSON.stringify cannot produce (it writes Infinity as null). */
class RawNumber {
  constructor(readonly text: string) {}
}

interface BodyRoute {
  readonly method: 'POST' | 'PUT' | 'PATCH';
  readonly path: string;
  readonly valid: Readonly<Record<string, unknown>>;
  /** Empty for a PATCH, whose fields are all optional (its id names no record: the body is refused first). */
  readonly required: readonly string[];
  /** Per field: values of a wrong type or shape. */
  readonly wrong: Readonly<Record<string, readonly unknown[]>>;
  /** String fields, which must refuse huge values and control characters. */
  readonly strings: readonly string[];
}

const SETTINGS = {
  refreshTokenLifetimeMinutes: 600,
  sessionIdleTimeoutMinutes: 120,
  sessionAbsoluteLifetimeMinutes: 1440,
  signingKeyRotationIntervalDays: 30,
  signingKeyGraceWindowDays: 5,
  signingKeyRetiredCleanupDays: 10,
};
const OIDC_CONNECTION = {
  providerType: 'Google',
  clientId: 'google-client',
  clientSecret: 'google-secret',
  allowedCallbackUris: ['https://id.example/svc/auth/oidc/callback'],
};
const num = (text: string) => new RawNumber(text);
const NOT_INTEGERS = ['600', 1.5, num('1e400'), num('-1e400'), 2 ** 53 + 2, true, [], {}, null];

const BODY_ROUTES: readonly BodyRoute[] = [
  {
    method: 'POST',
    path: '/organizations',
    valid: { name: 'Acme', slug: 'acme', primaryDomain: 'acme.example' },
    required: ['name'],
    wrong: { name: [42, true, [], {}, null, ''], slug: [42, ['acme'], 'Not A Slug'], primaryDomain: [1, {}] },
    strings: ['name', 'slug', 'primaryDomain'],
  },
  {
    method: 'POST',
    path: '/users',
    valid: { displayName: 'Ann', email: 'ann@example.com', password: 'long enough' },
    required: ['displayName', 'email'],
    wrong: {
      displayName: [42, [], null],
      email: [42, 'not-an-email', ['a@example.com']],
      password: [1, 'short'],
    },
    strings: ['displayName', 'email'],
  },
  {
    method: 'POST',
    path: '/memberships',
    valid: { organizationId: 'org_1', userId: 'usr_1', role: 'member' },
    required: ['organizationId', 'userId', 'role'],
    wrong: { organizationId: [1, [], null], userId: [{}, true], role: [7, ''] },
    strings: ['organizationId', 'userId', 'role'],
  },
  {
    method: 'POST',
    path: '/clients',
    valid: {
      clientId: 'app',
      name: 'App',
      audience: 'https://api.example',
      redirectUris: ['https://a.example/cb'],
    },
    required: ['clientId', 'name', 'audience', 'redirectUris'],
    wrong: {
      clientId: [1, 'with space'],
      name: [1, null],
      audience: [[], false],
      redirectUris: ['https://a.example/cb', [1], ['/relative'], [{}]],
      isFirstParty: ['true', 1],
      allowedScopes: ['openid', [1], ['auth:admin'], ['a b']],
      allowedResources: [{}, ['https://api.example#frag']],
      tokenEndpointAuthMethod: [1, 'private_key_jwt'],
      allowDeviceAuthorization: ['yes'],
      allowClientCredentials: [0, true],
    },
    strings: ['clientId', 'name', 'audience'],
  },
  {
    method: 'PATCH',
    path: '/users/usr_x',
    valid: { displayName: 'Ann', email: 'ann@example.com', password: 'long enough', active: true },
    required: [],
    wrong: {
      displayName: [42, [], null, ''],
      email: [42, 'not-an-email', null],
      password: [1, 'short'],
      active: ['false', 0, null],
    },
    strings: ['displayName', 'email'],
  },
  {
    method: 'PATCH',
    path: '/organizations/org_x',
    valid: { name: 'Acme', slug: 'acme', active: false },
    required: [],
    wrong: { name: [42, null, ''], slug: [42, 'Not A Slug', null], active: ['yes'] },
    strings: ['name', 'slug'],
  },
  {
    method: 'PATCH',
    path: '/memberships/mem_x',
    valid: { role: 'member', active: true },
    required: [],
    wrong: { role: [7, '', null], active: [1] },
    strings: ['role'],
  },
  {
    method: 'PATCH',
    path: '/clients/app_x',
    valid: { name: 'App', redirectUris: ['https://a.example/cb'], active: true },
    required: [],
    wrong: {
      name: [1, null],
      audience: [[], false],
      redirectUris: ['https://a.example/cb', [1], ['/relative']],
      allowedScopes: ['openid', ['auth:admin'], ['a b']],
      tokenEndpointAuthMethod: [1, 'private_key_jwt'],
      allowClientCredentials: [0],
      active: ['true'],
    },
    strings: ['name', 'audience'],
  },
  ...(['POST', 'PUT'] as const).map((method): BodyRoute => ({
    method,
    path: method === 'POST' ? '/oidc-connections' : '/oidc-connections/oidc_x',
    valid: OIDC_CONNECTION,
    required: ['providerType', 'clientId', 'allowedCallbackUris'],
    wrong: {
      providerType: [1, 'Facebook', null],
      clientId: [1, 'with space'],
      clientSecret: [1, []],
      allowedCallbackUris: ['https://id.example/cb', [], ['/relative'], ['javascript:alert(1)'], [1]],
      discoveryUrl: ['ftp://idp.example/x', 'http://idp.example/x', 7],
      useDiscovery: ['true'],
      scopes: ['openid', ['a b'], [1]],
      claimMapping: [{ sub: 'oid' }, 'sub', { email: 1 }],
      clientAuthMethod: ['private_key_jwt', 1],
      useUserInfo: [1],
      microsoftTenant: ['not a tenant'],
      applePrivateKeyPem: ['not a key', 1],
      logoDataUrl: ['https://cdn.example/logo.png', 'data:image/png;base64,"x"', 1],
      organizationId: [1, {}],
      enabled: ['yes'],
    },
    strings: ['displayName', 'clientId', 'clientSecret', 'appleTeamId'],
  })),
  {
    method: 'POST',
    path: '/organizations/org_x/domains',
    valid: { domain: 'acme.example' },
    required: ['domain'],
    wrong: {
      domain: [42, [], {}, null, '', 'not a domain', '192.0.2.1', '[::1]', 'com', 'https://acme.example/'],
    },
    strings: ['domain'],
  },
  ...['/sessions/revocation/preview', '/sessions/revocation'].map((path): BodyRoute => ({
    method: 'POST',
    path,
    valid: { userId: 'usr_1', confirm: true, expectedMatchedSessions: 1, reason: 'lost laptop' },
    // At least one selector field, none required alone: `{}` is a 400 naming them (session tests).
    required: [],
    wrong: {
      sessionId: [1, [], null, ''],
      userId: [{}, true],
      organizationId: [1],
      clientApplicationId: [1, 'with space', 'x'.repeat(257)],
      confirm: ['true', 1],
      expectedMatchedSessions: [...NOT_INTEGERS, -1],
      reason: [1, ''],
      operationId: [1, 'with space', 'x'.repeat(129)],
    },
    strings: ['sessionId', 'userId', 'organizationId', 'clientApplicationId', 'reason', 'operationId'],
  })),
  {
    method: 'PUT',
    path: '/settings/security',
    valid: SETTINGS,
    required: Object.keys(SETTINGS),
    wrong: Object.fromEntries(
      [...Object.keys(SETTINGS), 'refreshTokenGraceWindowSeconds'].map((field) => [field, NOT_INTEGERS]),
    ),
    strings: [],
  },
];

const json = (route: BodyRoute, payload: string, headers: Record<string, string> = JSON_TYPE) => ({
  method: route.method,
  url: `${ADMIN}${route.path}`,
  payload,
  headers: { ...OPERATOR, ...headers },
});

/** JSON text of `value`, with RawNumber written as its literal. */
const toJson = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (v instanceof RawNumber ? `@raw:${v.text}` : v)).replace(
    /"@raw:([^"]*)"/g,
    '$1',
  );
const deep = (open: string, close: string, depth: number) => open.repeat(depth) + close.repeat(depth);

function bodyCases(route: BodyRoute): Case[] {
  const label = (what: string) => `${route.method} ${route.path}: ${what}`;
  const body = (value: unknown) => json(route, toJson(value));
  const first = route.required[0] ?? Object.keys(route.valid)[0] ?? '';
  const notAnObject: [string, string][] = [
    ['invalid JSON', '{"name":'],
    ['JSON with a trailing comma', '{"a":1,}'],
    ['an empty JSON body', ''],
    ['whitespace only', '  \n'],
    ['a JSON array', toJson([route.valid])],
    ['a JSON string', '"hello"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['__proto__ poisoning', '{"__proto__":{"isAdmin":true}}'],
    ['a deeply nested array', deep('[', ']', 100_000)],
  ];
  const cases: Case[] = [
    ...notAnObject.map(([what, raw]) => ({ name: label(what), request: json(route, raw), status: 400 })),
    {
      name: label('a deeply nested value in a field'),
      request: json(route, `{"${first}":${deep('[', ']', 100_000)}}`),
      status: 400,
      field: first,
    },
    {
      name: label('an oversized JSON body'),
      request: body({ ...route.valid, padding: 'x'.repeat(300 * 1024) }),
      status: 413,
      error: 'payload_too_large',
    },
    {
      name: label('an oversized text body'),
      request: json(route, 'x'.repeat(300 * 1024), { 'content-type': 'text/plain' }),
      status: 413,
      error: 'payload_too_large',
    },
    ...[
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
      'multipart/form-data; boundary=x',
    ].map((type) => ({
      name: label(`Content-Type ${type}`),
      request: json(route, 'name=Acme', { 'content-type': type }),
    })),
    { name: label('no Content-Type'), request: json(route, JSON.stringify(route.valid), {}) },
  ];
  if (route.required.length > 0) {
    cases.push(
      { name: label('an empty object'), request: body({}), status: 400, field: first },
      // Nesting past the limit is refused as it is read, naming the field that holds it; within the
      // limit an unknown field is ignored and the missing one named.
      {
        name: label('a deeply nested unknown field beside a missing one'),
        request: json(route, `{"extra":${deep('{"a":', '}', 20_000).replace('{"a":}', '{"a":1}')}}`),
        status: 400,
        field: 'extra',
      },
      {
        name: label('an unknown field nested 20 levels beside a missing one'),
        request: json(route, `{"extra":${deep('{"a":', '}', 20).replace('{"a":}', '{"a":1}')}}`),
        status: 400,
        field: first,
      },
    );
  }
  for (const field of route.required) {
    const { [field]: _omitted, ...rest } = route.valid;
    cases.push({ name: label(`missing ${field}`), request: body(rest), status: 400, field });
  }
  for (const [field, values] of Object.entries(route.wrong)) {
    for (const value of values) {
      const payload = { ...route.valid, unknownExtra: { x: 1 }, [field]: value };
      cases.push({
        name: label(`${field} = ${value instanceof RawNumber ? value.text : JSON.stringify(value)}`),
        request: body(payload),
        status: 400,
        field,
      });
    }
  }
  for (const field of route.strings) {
    for (const [what, value] of [
      ['a 10k-character', 'a'.repeat(10_000)],
      ['a NUL in a', 'ab\u0000c'],
      ['an escape character in a', 'ab\u001b[31mc'],
      ['a line break in a', 'ab\nc'],
    ] as const) {
      const payload = { ...route.valid, [field]: value };
      cases.push({ name: label(`${what} ${field}`), request: body(payload), status: 400, field });
    }
  }
  return cases;
}

const SESSION_QUERIES: readonly [string, string][] = [
  ['userId=%00', 'userId'],
  [`userId=${'u'.repeat(201)}`, 'userId'],
  ['userId=a&userId=b', 'userId'],
  ['organizationId=a%0Ab', 'organizationId'],
  ['clientId=with%20space', 'clientId'],
  [`clientId=${'c'.repeat(257)}`, 'clientId'],
  ['active=yes', 'active'],
  ['active=1', 'active'],
];
const LISTS = [
  `${ADMIN}/sessions`,
  `${ADMIN}/organizations`,
  `${ADMIN}/users`,
  `${ADMIN}/clients`,
  `${ADMIN}/oidc-connections`,
  `${AUDIT}/events`,
];
/** Record routes whose id in the path is malformed: the id is refused (400) before any lookup. */
const BAD_IDS: readonly ['GET' | 'PATCH' | 'POST', string, string][] = [
  ...['/users/', '/organizations/', '/users/%s/memberships', '/organizations/%s/memberships'].flatMap(
    (path): ['GET' | 'PATCH' | 'POST', string, string][] =>
      ['%00', '%1B%5B31m'].map((id) => [
        'GET',
        path.includes('%s') ? path.replace('%s', id) : `${path}${id}`,
        'id',
      ]),
  ),
  ['PATCH', '/memberships/a%0Ab', 'id'],
  ['GET', '/clients/with%20space', 'clientId'],
  ['POST', '/clients/%00/rotate-secret', 'clientId'],
  ['GET', '/oidc-connections/%00', 'id'],
  ['POST', '/oidc-connections/a%0Ab/disable', 'id'],
  ['GET', '/organizations/%1B%5B31m/domains', 'organizationId'],
  ['POST', '/organizations/org_x/domains/%00/verify', 'id'],
  ['POST', '/organizations/%00/domains/dom_x/revoke', 'organizationId'],
];
const nulCursor = encodeCursor({ at: 1, id: 'org_\u0000' });
const QUERIES: readonly [string, string][] = [
  ['limit=0', 'limit'],
  ['limit=-1', 'limit'],
  ['limit=1.5', 'limit'],
  ['limit=abc', 'limit'],
  ['limit=100000', 'limit'],
  ['limit=', 'limit'],
  ['limit=Infinity', 'limit'],
  ['limit=1&limit=2', 'limit'],
  ['cursor=garbage', 'cursor'],
  ['cursor=%00', 'cursor'],
  [`cursor=${nulCursor}`, 'cursor'],
  [`cursor=${Buffer.from('{}').toString('base64url')}`, 'cursor'],
  [`cursor=${'A'.repeat(600)}`, 'cursor'],
  ['cursor=a&cursor=b', 'cursor'],
];
const AUDIT_QUERIES: readonly [string, string][] = [
  ['from=yesterday', 'from'],
  ['from=2026-13-01T00:00:00Z', 'from'],
  ['from=2026-01-01', 'from'],
  ['to=2026-02-30T00:00:00Z', 'to'],
  ['to=1767225600000', 'to'],
  ['from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'from'],
  ['from=2026-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'from'],
  ['from=2026-01-01T00:00:00Z&from=2026-01-02T00:00:00Z', 'from'],
  ...[
    'ADMIN.*',
    'admin.%',
    'admin.*.x',
    '*',
    'admin.**',
    'admin..x',
    "admin'--",
    'admin.%00',
    'a'.repeat(201),
  ].map((kind): [string, string] => [`kind=${encodeURIComponent(kind)}`, 'kind']),
  ['kind=admin.*&kind=oauth.*', 'kind'],
];

const CASES: readonly Case[] = [
  ...BODY_ROUTES.flatMap(bodyCases),
  ...LISTS.flatMap((url) =>
    [
      ...QUERIES,
      ...(url.startsWith(AUDIT) ? AUDIT_QUERIES : []),
      ...(url.endsWith('/sessions') ? SESSION_QUERIES : []),
    ].map(([query, field]): Case => ({
      name: `GET ${url}?${query.length > 60 ? `${query.slice(0, 60)}… (${query.length} chars)` : query}`,
      request: { method: 'GET', url: `${url}?${query}`, headers: OPERATOR },
      status: 400,
      field,
    })),
  ),
  // A membership or domain list names its owner first (unknown: 404); its paging parameters are read before that.
  ...[
    `${ADMIN}/organizations/org_x/memberships`,
    `${ADMIN}/users/usr_x/memberships`,
    `${ADMIN}/organizations/org_x/domains`,
  ].flatMap((url) =>
    QUERIES.filter(([, field]) => field === 'limit').map(([query, field]): Case => ({
      name: `GET ${url}?${query}`,
      request: { method: 'GET', url: `${url}?${query}`, headers: OPERATOR },
      status: 400,
      field,
    })),
  ),
  ...BAD_IDS.map(([method, path, field]): Case => ({
    name: `${String(method)} ${ADMIN}${path.length > 60 ? `${path.slice(0, 60)}…` : path}`,
    request: {
      method,
      url: `${ADMIN}${path}`,
      headers: method === 'PATCH' ? { ...OPERATOR, ...JSON_TYPE } : OPERATOR,
      ...(method === 'PATCH' ? { payload: '{"role":"member"}' } : {}),
    },
    status: 400,
    field,
  })),
  ...['/svc/%zz', `${ADMIN}/organizations/%E0%A4%A`].map((url): Case => ({
    name: `a broken URL ${url}`,
    request: { method: 'GET', url, headers: OPERATOR },
    status: 400,
    error: 'invalid_request',
  })),
];

describe('malformed input', () => {
  let t: TestSvc;
  beforeAll(async () => {
    t = await createTestSvc();
  });
  afterAll(() => t.close());

  it.each(CASES.map((c) => [c.name, c] as const))('%s → 4xx naming the fault', async (_name, c) => {
    const response = await t.svc.app.inject(c.request);
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, response.body).toBeLessThan(500);
    if (c.status !== undefined) expect(response.statusCode, response.body).toBe(c.status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = response.json<{ error?: unknown; message?: unknown }>();
    expect(body.error).toEqual(expect.any(String));
    expect(body.message).toEqual(expect.stringMatching(/\S/));
    if (c.field !== undefined) expect(body.message).toContain(c.field);
    if (c.error !== undefined) expect(body.error).toBe(c.error);
  });

  it('created nothing from all of that', async () => {
    for (const list of ['organizations', 'users', 'clients', 'oidc-connections']) {
      const page = await t.svc.app.inject({ method: 'GET', url: `${ADMIN}/${list}`, headers: OPERATOR });
      expect(page.json(), list).toEqual({ data: [], nextCursor: null });
    }
    const audit = await t.svc.app.inject({ method: 'GET', url: `${AUDIT}/events`, headers: OPERATOR });
    expect(audit.json()).toEqual({ data: [], nextCursor: null });
  });

  const WELL_KNOWN = ['oauth-authorization-server', 'openid-configuration', 'jwks.json'];
  const ODD_QUERIES = [
    '',
    '?',
    '?x=%zz',
    '?a[b]=c&a=1&a=2',
    `?${'q'.repeat(4000)}`,
    '?issuer=https://evil.example',
  ];
  const ODD_HEADERS: Record<string, string>[] = [
    {},
    { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    { accept: 'application/xml', 'accept-encoding': 'br;q=2, *;q=0' },
    { 'if-none-match': 'garbage', 'if-modified-since': 'yesterday' },
    { authorization: 'Bearer garbage', cookie: '=;;=x', 'content-type': 'text/plain' },
  ];

  it.each(WELL_KNOWN.flatMap((name) => ['GET', 'HEAD'].map((method) => [method, name] as const)))(
    '%s /.well-known/%s answers 200 to odd query strings and headers',
    async (method, name) => {
      for (const query of ODD_QUERIES) {
        for (const headers of ODD_HEADERS) {
          const url = `/svc/auth/.well-known/${name}${query}`;
          const what = `${url.slice(0, 80)} ${JSON.stringify(headers)}`;
          const response = await t.svc.app.inject({ method: method as 'GET' | 'HEAD', url, headers });
          expect(response.statusCode, what).toBe(200);
          expect(response.headers['content-type'], what).toBe('application/json; charset=utf-8');
          if (method === 'HEAD') continue;
          const body = response.json<Record<string, unknown>>();
          if (name === 'jwks.json') expect(body.keys, what).toHaveLength(1);
          else expect(body.issuer, what).toBe(`${TEST_ORIGIN}/svc/auth`);
        }
      }
    },
  );
});
