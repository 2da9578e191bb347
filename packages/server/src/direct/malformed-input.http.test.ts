import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeAboveStorage } from '../test-support/databases.js';
import { createDirectHarness, type DirectHarness } from '../test-support/direct-test-app.js';

/**
 * Every direct route answers malformed input with a 4xx and a `{ error, message }` body (whose message
 * names the field at fault where there is one), never a 5xx, and does nothing else: no account, no
 * session, no audit event; on SQLite and on PostgreSQL, which refuses NUL in text. The one exception is
 * POST /logout, whose malformed tokens are no-ops like unknown ones (204). The cases are generated from
 * the table below.
 */

const AUTH = '/svc/auth';
const JSON_TYPE = { 'content-type': 'application/json' };

interface DirectRoute {
  readonly path: string;
  readonly valid: Readonly<Record<string, unknown>>;
  /** Per required field: the status when it is missing (400 naming it, or 401 for the session proof). */
  readonly required: Readonly<Record<string, 400 | 401>>;
  /** Per field: values of a wrong type or shape. */
  readonly wrong: Readonly<Record<string, readonly unknown[]>>;
  /** Fields that must refuse huge values and control characters. */
  readonly strings: readonly string[];
  /** Fields that must refuse huge values only (passwords: every character counts). */
  readonly bounded: readonly string[];
  /** Bodies that mean "nothing": answered like an empty object (POST /logout: 204). */
  readonly emptyStatus: 400 | 401 | 204;
  /** Fields whose wrong or hostile values are answered like no value (POST /logout's token: 204). */
  readonly lenient?: readonly string[];
}

const TOKEN = 'rt_0123456789abcdef';
const TOKEN_WRONG = [1, true, [], {}, 'with space', 'x'.repeat(513), ''];
const ID_WRONG = [1, [], {}, ''];
const CLIENT_WRONG = [1, {}, ['app'], 'with space', ''];
const CALLBACK = 'https://app.example.com/oidc/callback';
const CALLBACK_WRONG = [1, 'not a url', 'ftp://app.example.com/cb', `${CALLBACK}#x`, null];
/** Printable text the app chose (state, nonce, code) of at most `max` characters. */
const printableWrong = (max: number) => [1, {}, '', 'with space', 'x'.repeat(max + 1), null];

const ROUTES: readonly DirectRoute[] = [
  {
    path: '/signup',
    valid: {
      displayName: 'Ann',
      email: 'ann@example.com',
      password: 'long enough',
      organizationName: 'Acme',
      clientId: 'no-such-app',
    },
    required: { displayName: 400, email: 400, password: 400 },
    wrong: {
      displayName: [42, [], null, ''],
      email: [42, 'not-an-email', ['ann@example.com'], null],
      password: [1, 'short', null, []],
      organizationName: [42, {}, ['Acme']],
      clientId: CLIENT_WRONG,
      organizationId: ['org_1', 1, {}],
    },
    strings: ['displayName', 'email', 'organizationName', 'clientId'],
    bounded: ['password'],
    emptyStatus: 400,
  },
  {
    path: '/password/login',
    valid: { email: 'ann@example.com', password: 'pw', clientId: 'no-such-app', organizationId: 'org_1' },
    required: { email: 400, password: 400 },
    wrong: {
      email: [42, 'not-an-email', null],
      password: [1, null, '', {}],
      clientId: CLIENT_WRONG,
      organizationId: ID_WRONG,
    },
    strings: ['email', 'clientId', 'organizationId'],
    bounded: ['password'],
    emptyStatus: 400,
  },
  {
    path: '/select-organization',
    valid: { pendingAuthToken: TOKEN, organizationId: 'org_1' },
    required: { pendingAuthToken: 400, organizationId: 400 },
    wrong: { pendingAuthToken: [...TOKEN_WRONG, null], organizationId: [...ID_WRONG, null] },
    strings: ['pendingAuthToken', 'organizationId'],
    bounded: [],
    emptyStatus: 400,
  },
  {
    path: '/token/refresh',
    valid: { refreshToken: TOKEN, organizationId: 'org_1' },
    required: { refreshToken: 400 },
    wrong: { refreshToken: [...TOKEN_WRONG, null], organizationId: ID_WRONG },
    strings: ['refreshToken', 'organizationId'],
    bounded: [],
    emptyStatus: 400,
  },
  {
    path: '/logout',
    valid: { refreshToken: TOKEN },
    required: {},
    wrong: { refreshToken: TOKEN_WRONG },
    strings: ['refreshToken'],
    bounded: [],
    emptyStatus: 204,
    lenient: ['refreshToken'],
  },
  {
    path: '/logout-all',
    valid: { refreshToken: TOKEN },
    required: { refreshToken: 401 },
    wrong: { refreshToken: TOKEN_WRONG },
    strings: ['refreshToken'],
    bounded: [],
    emptyStatus: 401,
  },
  {
    path: '/account/grants',
    valid: { refreshToken: TOKEN },
    required: { refreshToken: 401 },
    wrong: { refreshToken: TOKEN_WRONG },
    strings: ['refreshToken'],
    bounded: [],
    emptyStatus: 401,
  },
  {
    path: '/account/identities',
    valid: { refreshToken: TOKEN },
    required: { refreshToken: 401 },
    wrong: { refreshToken: TOKEN_WRONG },
    strings: ['refreshToken'],
    bounded: [],
    emptyStatus: 401,
  },
  {
    path: '/account/identities/remove',
    valid: { refreshToken: TOKEN, identityId: 'oid_1' },
    required: { identityId: 400, refreshToken: 401 },
    wrong: { refreshToken: TOKEN_WRONG, identityId: [...ID_WRONG, null] },
    strings: ['refreshToken', 'identityId'],
    bounded: [],
    emptyStatus: 400,
  },
  {
    path: '/oidc/authorization-url',
    valid: {
      connectionId: 'oidc_1',
      clientId: 'no-such-app',
      email: 'ann@example.com',
      callbackUri: CALLBACK,
      state: 'state-1',
      nonce: 'nonce-1',
      codeChallenge: 'c'.repeat(43),
      codeChallengeMethod: 'S256',
    },
    required: {
      connectionId: 400,
      callbackUri: 400,
      state: 400,
      nonce: 400,
      codeChallenge: 400,
      codeChallengeMethod: 400,
    },
    wrong: {
      connectionId: [...ID_WRONG, null],
      clientId: CLIENT_WRONG,
      email: [42, 'not-an-email', ['ann@example.com']],
      callbackUri: CALLBACK_WRONG,
      state: printableWrong(2048),
      nonce: printableWrong(512),
      codeChallenge: [1, 'c'.repeat(42), 'c'.repeat(44), `${'c'.repeat(42)}=`, null],
      codeChallengeMethod: ['plain', 's256', 1, null],
    },
    strings: ['connectionId', 'clientId', 'email', 'callbackUri', 'state', 'nonce', 'codeChallenge'],
    bounded: [],
    emptyStatus: 400,
  },
  {
    path: '/oidc/exchange',
    valid: {
      connectionId: 'oidc_1',
      clientId: 'no-such-app',
      callbackUri: CALLBACK,
      code: 'code-1',
      codeVerifier: 'v'.repeat(43),
      nonce: 'nonce-1',
      userPayloadJson: '{"name":{"firstName":"Ann"}}',
      iss: 'https://idp.example.com',
    },
    required: { connectionId: 400, callbackUri: 400, code: 400, codeVerifier: 400, nonce: 400 },
    wrong: {
      connectionId: [...ID_WRONG, null],
      clientId: CLIENT_WRONG,
      callbackUri: CALLBACK_WRONG,
      code: printableWrong(2048),
      codeVerifier: [1, 'v'.repeat(42), 'v'.repeat(129), `${'v'.repeat(42)}+`, null],
      nonce: printableWrong(512),
      userPayloadJson: [1, { name: {} }, []],
      iss: [1, {}, 'with space'],
    },
    strings: ['connectionId', 'clientId', 'callbackUri', 'code', 'codeVerifier', 'nonce', 'iss'],
    // Apple's JSON as the app received it: any text, bounded.
    bounded: ['userPayloadJson'],
    emptyStatus: 400,
  },
  {
    path: '/account/grants/revoke',
    valid: { refreshToken: TOKEN, grantId: 'cgr_1' },
    required: { grantId: 400, refreshToken: 401 },
    wrong: { refreshToken: TOKEN_WRONG, grantId: [...ID_WRONG, null] },
    strings: ['refreshToken', 'grantId'],
    bounded: [],
    emptyStatus: 400,
  },
];

interface Case {
  readonly name: string;
  readonly request: InjectOptions;
  /** The exact status when it matters; any 4xx otherwise. */
  readonly status?: number;
  /** The field the message must name. */
  readonly field?: string;
  readonly error?: string;
}

const deep = (open: string, close: string, depth: number) => open.repeat(depth) + close.repeat(depth);

function routeCases(route: DirectRoute): Case[] {
  const label = (what: string) => `POST ${route.path}: ${what}`;
  const raw = (payload: string, headers: Record<string, string> = JSON_TYPE): InjectOptions => ({
    method: 'POST',
    url: `${AUTH}${route.path}`,
    payload,
    headers,
  });
  const body = (value: unknown) => raw(JSON.stringify(value));
  const cases: Case[] = [
    ...(
      [
        ['invalid JSON', '{"refreshToken":'],
        ['JSON with a trailing comma', '{"a":1,}'],
        ['a JSON array', JSON.stringify([route.valid])],
        ['a JSON string', '"hello"'],
        ['a JSON number', '42'],
        ['__proto__ poisoning', '{"__proto__":{"isAdmin":true}}'],
        ['constructor poisoning', '{"constructor":{"prototype":{"isAdmin":true}}}'],
        ['a deeply nested array', deep('[', ']', 100_000)],
      ] as const
    ).map(([what, payload]) => ({ name: label(what), request: raw(payload), status: 400 })),
    ...(
      [
        ['an empty JSON body', ''],
        ['whitespace only', '  \n'],
      ] as const
    ).map(([what, payload]) => ({
      name: label(what),
      request: raw(payload),
      status: route.emptyStatus === 204 ? 204 : 400,
    })),
    { name: label('JSON null'), request: raw('null'), status: route.emptyStatus },
    { name: label('an empty object'), request: body({}), status: route.emptyStatus },
    {
      name: label('a deeply nested value in a field'),
      request: raw(`{"refreshToken":${deep('[', ']', 100_000)}}`),
      ...(route.lenient === undefined ? {} : { status: 204 }),
    },
    {
      name: label('an oversized JSON body'),
      request: body({ ...route.valid, padding: 'x'.repeat(300 * 1024) }),
      status: 413,
      error: 'payload_too_large',
    },
    // Fastify reads text/plain as a string, which is not a JSON object: a 400 rather than a 415.
    {
      name: label('Content-Type text/plain'),
      request: raw('refreshToken=x', { 'content-type': 'text/plain' }),
      status: 400,
    },
    ...['application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x'].map(
      (type) => ({
        name: label(`Content-Type ${type}`),
        request: raw('refreshToken=x', { 'content-type': type }),
        status: 415,
        error: 'unsupported_media_type',
      }),
    ),
    { name: label('no Content-Type'), request: raw(JSON.stringify(route.valid), {}), status: 415 },
  ];
  for (const [field, status] of Object.entries(route.required)) {
    const { [field]: _omitted, ...rest } = route.valid;
    cases.push({
      name: label(`missing ${field}`),
      request: body(rest),
      status,
      ...(status === 400 ? { field } : {}),
    });
  }
  const refusal = (field: string) =>
    route.lenient?.includes(field) === true ? { status: 204 } : { status: 400, field };
  for (const [field, values] of Object.entries(route.wrong)) {
    for (const value of values) {
      const text = JSON.stringify(value);
      cases.push({
        name: label(`${field} = ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`),
        request: body({ ...route.valid, unknownExtra: { x: 1 }, [field]: value }),
        ...refusal(field),
      });
    }
  }
  const hostile: [string, string, boolean][] = [
    ['a 10k-character', 'a'.repeat(10_000), true],
    ['a NUL in a', 'ab\u0000c', false],
    ['a NUL in the row id of a', 'rft_0190aa\u0000.secret', false],
    ['an escape character in a', 'ab\u001b[31mc', false],
    ['a line break in a', 'ab\nc', false],
    ['a DEL in a', 'ab\u007fc', false],
    ['a C1 control in a', 'ab\u0085c', false],
  ];
  for (const field of [...route.strings, ...route.bounded]) {
    for (const [what, value, length] of hostile) {
      if (!length && route.bounded.includes(field)) continue;
      cases.push({
        name: label(`${what} ${field}`),
        request: body({ ...route.valid, [field]: value }),
        ...refusal(field),
      });
    }
  }
  return cases;
}

const CASES = ROUTES.flatMap(routeCases);

describeAboveStorage('direct routes: malformed input', (kind) => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness(kind);
  });
  afterAll(() => h.close());

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const response = await h.inject(c.request);
    if (c.status === 204) {
      expect(response.statusCode, response.body).toBe(204);
      return;
    }
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, response.body).toBeLessThan(500);
    if (c.status !== undefined) expect(response.statusCode, response.body).toBe(c.status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<{ error?: unknown; message?: unknown }>();
    expect(body.error).toEqual(expect.any(String));
    expect(body.message).toEqual(expect.stringMatching(/\S/));
    if (c.field !== undefined) expect(body.message).toContain(c.field);
    if (c.error !== undefined) expect(body.error).toBe(c.error);
  });

  it('did nothing else: no account, no session, no audit event', async () => {
    const db = h.t.svc.database.db;
    expect(await db.selectFrom('users').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('sessions').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('auditEvents').select('kind').execute()).toEqual([]);
  });
});
