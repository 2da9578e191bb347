import {
  pageSchema,
  svcDomainClaimSchema,
  svcSsoConnectionSchema,
  svcSsoPortalLinkCreatedSchema,
  svcSsoPortalLinkSchema,
} from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { HOUR_MS, DAY_MS } from '../kernel/clock.js';
import { DEFAULT_FAILURE_RULES } from '../ratelimit/failure-rules.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { startDnsServer, type TestDnsServer } from '../test-support/dns-server.js';
import { operatorApi, type OperatorMethod } from '../test-support/operator-api.js';
import { createTestSvc, TEST_ORIGIN, type TestSvc } from '../test-support/test-svc.js';

const API = '/svc/admin/auth/api';
const PORTAL = '/svc/admin/auth/sso-portal';
const SETUP_API = `${PORTAL}/api/setup`;
type Method = 'GET' | 'POST';

/** A browser holding one portal session: its cookie and the token its page would carry. */
interface PortalBrowser {
  readonly cookie: string;
  readonly csrf: string;
}

/**
 * The customer SSO setup portal over HTTP (docs/reference/federation.md "The SSO setup
 * portal"): operators' setup links, their one-time exchange for a portal
 * session, the portal API's scoping, antiforgery and 404s, and the page's forms.
 */
describeAboveStorage('SSO setup portal', (kind) => {
  let t: TestSvc;
  let dns: TestDnsServer;
  let acme: string;
  let globex: string;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestSvc(kind, { dns: { servers: [dns.address], timeoutMs: 1_000 } });
    acme = (await t.svc.admin.createOrganizationAsync({ name: 'Acme' })).id;
    globex = (await t.svc.admin.createOrganizationAsync({ name: 'Globex' })).id;
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  const operator = operatorApi(API, () => t, { ordered: true });
  const newLink = async (organizationId = acme) => {
    const response = await operator('POST', `/organizations/${organizationId}/sso-portal/sessions`);
    expect(response.status, response.text).toBe(201);
    return svcSsoPortalLinkCreatedSchema.strict().parse(response.body);
  };
  const links = async (organizationId = acme) => {
    const response = await operator('GET', `/organizations/${organizationId}/sso-portal/sessions`);
    expect(response.status, response.text).toBe(200);
    return { page: pageSchema(svcSsoPortalLinkSchema.strict()).parse(response.body), text: response.text };
  };
  /** Opens a setup link as the customer's admin does: the start route, as a path on Svc. */
  const open = (url: string) => {
    const parsed = new URL(url);
    return t.svc.app.inject({ method: 'GET', url: `${parsed.pathname}${parsed.search}` });
  };
  const session = async (organizationId = acme): Promise<PortalBrowser> => {
    const started = await open((await newLink(organizationId)).url);
    expect(started.statusCode, started.body).toBe(303);
    const cookie = started.cookies.find((c) => c.name === 'svc_sso_portal');
    expect(cookie).toBeDefined();
    const overview = await t.svc.app.inject({
      method: 'GET',
      url: SETUP_API,
      headers: { cookie: `svc_sso_portal=${cookie?.value ?? ''}` },
    });
    return {
      cookie: `svc_sso_portal=${cookie?.value ?? ''}`,
      csrf: overview.json<{ csrfToken: string }>().csrfToken,
    };
  };
  const api = async (
    method: Method,
    path: string,
    browser: PortalBrowser | undefined,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await t.svc.app.inject({
      method,
      url: `${SETUP_API}${path}`,
      headers: {
        ...(browser === undefined ? {} : { cookie: browser.cookie }),
        ...(method === 'POST' && browser !== undefined
          ? { 'x-svc-csrf': browser.csrf, origin: TEST_ORIGIN }
          : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(payload === undefined
        ? {}
        : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
    expect(response.statusCode, response.body).toBeLessThan(500);
    expect(response.headers['cache-control']).toBe('no-store');
    return response;
  };

  describe('setup links (operator routes)', () => {
    it('answers the link once, with a URL on the PublicOrigin, and lists links without their token', async () => {
      const created = await newLink();
      const url = new URL(created.url);
      expect(`${url.origin}${url.pathname}`).toBe(`${TEST_ORIGIN}${PORTAL}/start`);
      const token = url.searchParams.get('token') ?? '';
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Date.parse(created.expiresAt) - t.clock.now()).toBeGreaterThan(6 * DAY_MS);
      const listed = await links();
      expect(listed.page.data.find((l) => l.id === created.id)).toMatchObject({
        status: 'unused',
        usedAt: null,
      });
      expect(listed.text).not.toContain(token);
      const read = await operator('GET', `/sso-portal/sessions/${created.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(listed.page.data.find((l) => l.id === created.id));
      expect(read.text).not.toContain(token);
    });

    it('answers 404 without the operator token and for an unknown organization or link', async () => {
      const created = await newLink();
      const anonymous = (method: OperatorMethod, path: string) => operator(method, path, undefined, false);
      expect((await anonymous('POST', `/organizations/${acme}/sso-portal/sessions`)).body).toEqual(
        NOT_FOUND_BODY,
      );
      expect((await anonymous('GET', `/organizations/${acme}/sso-portal/sessions`)).status).toBe(404);
      expect((await anonymous('POST', `/sso-portal/sessions/${created.id}/revoke`)).status).toBe(404);
      expect((await anonymous('GET', `/sso-portal/sessions/${created.id}`)).status).toBe(404);
      expect((await operator('GET', '/sso-portal/sessions/ssolink_unknown')).status).toBe(404);
      expect((await operator('POST', '/organizations/org_unknown/sso-portal/sessions')).status).toBe(404);
      expect((await operator('POST', '/sso-portal/sessions/ssolink_unknown/revoke')).status).toBe(404);
      expect((await links()).page.data.find((l) => l.id === created.id)?.status).toBe('unused');
    });
  });

  describe('exchanging a link', () => {
    it('sets an HttpOnly, SameSite, portal-scoped cookie and sends the browser to the page; a second use is refused', async () => {
      const created = await newLink();
      const first = await open(created.url);
      expect(first.statusCode).toBe(303);
      expect(first.headers.location).toBe(`${PORTAL}/setup`);
      const setCookie = String(first.headers['set-cookie']);
      expect(setCookie).toMatch(/^svc_sso_portal=[A-Za-z0-9_-]{43};/);
      expect(setCookie).toContain(`Path=${PORTAL}`);
      expect(setCookie).toContain('HttpOnly');
      expect(setCookie).toContain('SameSite=Lax');
      expect(setCookie).toMatch(/Max-Age=28800/);

      const again = await open(created.url);
      expect(again.statusCode).toBe(400);
      expect(again.headers['content-type']).toContain('text/html');
      expect(again.body).toContain('Ask your administrator for a new setup link');
      expect(again.headers['set-cookie']).toBeUndefined();
      expect((await links()).page.data.find((l) => l.id === created.id)?.status).toBe('used');
    });

    it('refuses an unknown, malformed, missing, revoked or expired token with the same page', async () => {
      const revoked = await newLink();
      await operator('POST', `/sso-portal/sessions/${revoked.id}/revoke`);
      const expired = await newLink();
      t.clock.advance(7 * DAY_MS + 1);
      for (const url of [
        `${TEST_ORIGIN}${PORTAL}/start?token=${'A'.repeat(43)}`,
        `${TEST_ORIGIN}${PORTAL}/start?token=<script>`,
        `${TEST_ORIGIN}${PORTAL}/start`,
        revoked.url,
        expired.url,
      ]) {
        const response = await open(url);
        expect(response.statusCode, url).toBe(400);
        expect(response.body).toContain('This setup link cannot be used');
      }
      expect((await links()).page.data.find((l) => l.id === expired.id)?.status).toBe('expired');
    });
  });

  describe('the portal API', () => {
    it('answers 404 on every route without a live portal session, before reading the body', async () => {
      const routes: [Method, string, unknown][] = [
        ['GET', '', undefined],
        ['GET', '/sso-connections', undefined],
        ['POST', '/sso-connections', { displayName: 'X' }],
        ['GET', '/sso-connections/sso_x', undefined],
        ['POST', '/sso-connections/sso_x/metadata', '{not json'],
        ['GET', '/domains', undefined],
        ['POST', '/domains', { domain: 'x.test' }],
        ['POST', '/domains/dom_x/verify', undefined],
      ];
      for (const [method, path, payload] of routes) {
        for (const cookie of [undefined, { cookie: 'svc_sso_portal=garbage', csrf: '' }]) {
          const response = await api(method, path, cookie, payload);
          expect(response.statusCode, `${method} ${path}`).toBe(404);
          expect(response.json()).toEqual(NOT_FOUND_BODY);
        }
      }
      // The operator token is no portal session.
      expect((await api('GET', '', undefined, undefined, t.operator)).statusCode).toBe(404);
    });

    it("shows the session's organization and configures only its connections and domains", async () => {
      const browser = await session(acme);
      const overview = (await api('GET', '', browser)).json<Record<string, unknown>>();
      expect(overview).toMatchObject({
        organization: { id: acme, name: 'Acme' },
        connections: [],
        testResult: null,
      });

      const created = await api('POST', '/sso-connections', browser, {
        displayName: 'Acme Okta',
        organizationId: globex,
      });
      expect(created.statusCode, created.body).toBe(201);
      const connection = svcSsoConnectionSchema.strict().parse(created.json());
      expect(connection).toMatchObject({ organizationId: acme, enabled: false });
      expect(connection.acsUrl).toBe(`${TEST_ORIGIN}/svc/auth/saml/acs/${connection.id}`);
      expect((await api('GET', `/sso-connections/${connection.id}`, browser)).json()).toEqual(connection);

      const foreign = await t.svc.admin.createSsoConnectionDraftAsync({
        organizationId: globex,
        displayName: 'Globex',
      });
      const foreignClaim = await t.svc.admin.startVerificationAsync({
        organizationId: globex,
        domain: 'globex.test',
      });
      expect((await api('GET', `/sso-connections/${foreign.id}`, browser)).statusCode).toBe(404);
      expect(
        (await api('POST', `/sso-connections/${foreign.id}/metadata`, browser, { metadataXml: '<x/>' }))
          .statusCode,
      ).toBe(404);
      expect((await api('POST', `/sso-connections/${foreign.id}/enable`, browser)).statusCode).toBe(404);
      expect((await api('POST', `/domains/${foreignClaim.id}/verify`, browser)).statusCode).toBe(404);
      const listed = (await api('GET', '/sso-connections', browser)).json<{ data: { id: string }[] }>();
      expect(listed.data.map((c) => c.id)).toEqual([connection.id]);
    });

    it("refuses a primary domain: a customer cannot send another domain's users to their IdP", async () => {
      const browser = await session(acme);
      const before = (await t.svc.admin.listSsoConnectionsAsync(acme)).data;
      const refused = await api('POST', '/sso-connections', browser, {
        displayName: 'Everyone',
        primaryDomain: 'gmail.com',
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        error: 'invalid_request',
        details: [{ path: 'primaryDomain', message: 'not accepted here: verify the domain instead' }],
      });
      expect(refused.json<{ message: string }>().message).toContain('verify your email domains');
      expect((await t.svc.admin.listSsoConnectionsAsync(acme)).data).toEqual(before);
      expect(await t.svc.auth.discoverAsync({ email: 'someone@gmail.com' })).toEqual({ mode: 'password' });
    });

    it('starts and verifies a domain claim through the TXT record', async () => {
      const browser = await session(acme);
      const started = await api('POST', '/domains', browser, { domain: 'portal-acme.test' });
      expect(started.statusCode, started.body).toBe(201);
      const claim = svcDomainClaimSchema.strict().parse(started.json());
      expect(claim).toMatchObject({ organizationId: acme, status: 'pending_ownership' });
      const missing = svcDomainClaimSchema.parse(
        (await api('POST', `/domains/${claim.id}/verify`, browser)).json(),
      );
      expect(missing.status).toBe('pending_ownership');
      dns.setTxt(claim.record.name, [[claim.record.value]]);
      const verified = svcDomainClaimSchema.parse(
        (await api('POST', `/domains/${claim.id}/verify`, browser)).json(),
      );
      expect(verified.status).toBe('active');
      const listed = (await api('GET', '/domains', browser)).json<{
        data: { id: string; status: string }[];
      }>();
      expect(listed.data).toContainEqual(expect.objectContaining({ id: claim.id, status: 'active' }));
    });

    it('refuses a POST without the session token, with another session token, or from another origin (403)', async () => {
      const initech = (await t.svc.admin.createOrganizationAsync({ name: 'Initech' })).id;
      const browser = await session(initech);
      const other = await session(initech);
      const attempts: Record<string, string>[] = [
        { 'x-svc-csrf': '' },
        { 'x-svc-csrf': other.csrf },
        { origin: 'https://evil.test' },
      ];
      for (const headers of attempts) {
        const response = await api('POST', '/sso-connections', browser, { displayName: 'Forged' }, headers);
        expect(response.statusCode, JSON.stringify(headers)).toBe(403);
        expect(response.json()).toMatchObject({ error: 'csrf_failed' });
      }
      const noOrigin = await t.svc.app.inject({
        method: 'POST',
        url: `${SETUP_API}/sso-connections`,
        headers: { cookie: browser.cookie, 'x-svc-csrf': browser.csrf, 'content-type': 'application/json' },
        payload: JSON.stringify({ displayName: 'No origin' }),
      });
      expect(noOrigin.statusCode).toBe(403);
      expect((await api('GET', '/sso-connections', browser)).json()).toEqual({ data: [] });
    });

    it('answers malformed bodies with a 400 naming the problem', async () => {
      const browser = await session(acme);
      const connection = (await api('POST', '/sso-connections', browser, { displayName: 'Acme' })).json<{
        id: string;
      }>();
      const bad: [string, unknown][] = [
        ['/sso-connections', '{not json'],
        ['/sso-connections', { displayName: '' }],
        ['/sso-connections', []],
        ['/sso-connections', { displayName: 'X', autoProvisionUsers: 'yes' }],
        [`/sso-connections/${connection.id}/metadata`, { metadataXml: 42 }],
        [`/sso-connections/${connection.id}/metadata`, { metadataXml: '<not-metadata/>' }],
        ['/domains', { domain: 'not a domain' }],
        ['/domains', {}],
      ];
      for (const [path, payload] of bad) {
        const response = await api('POST', path, browser, payload);
        expect(response.statusCode, `${path} ${JSON.stringify(payload)}`).toBe(400);
        expect(response.json<{ message: string }>().message.length).toBeGreaterThan(0);
      }
    });

    it('ends every session of a revoked link at once', async () => {
      const created = await newLink();
      const started = await open(created.url);
      const cookie = `svc_sso_portal=${started.cookies.find((c) => c.name === 'svc_sso_portal')?.value ?? ''}`;
      expect((await api('GET', '', { cookie, csrf: '' })).statusCode).toBe(200);
      const revoked = await operator('POST', `/sso-portal/sessions/${created.id}/revoke`);
      expect(revoked.body).toMatchObject({ id: created.id, status: 'revoked' });
      expect((await api('GET', '', { cookie, csrf: '' })).statusCode).toBe(404);
      const page = await t.svc.app.inject({ method: 'GET', url: `${PORTAL}/setup`, headers: { cookie } });
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('Your setup session has ended');
    });

    it('ends a session after eight hours', async () => {
      const browser = await session(acme);
      t.clock.advance(8 * HOUR_MS - 60_000);
      expect((await api('GET', '', browser)).statusCode).toBe(200);
      t.clock.advance(60_000);
      expect((await api('GET', '', browser)).statusCode).toBe(404);
    });
  });

  describe('the page', () => {
    it('shows the SP details and takes its forms with the session token, back to the page with a notice', async () => {
      const browser = await session(globex);
      const form = (path: string, fields: Record<string, string>) =>
        t.svc.app.inject({
          method: 'POST',
          url: `${PORTAL}/setup${path}`,
          headers: {
            cookie: browser.cookie,
            origin: TEST_ORIGIN,
            'content-type': 'application/x-www-form-urlencoded',
          },
          payload: new URLSearchParams(fields).toString(),
        });
      const refused = await form('/connections', { displayName: 'Globex Entra' });
      expect(refused.statusCode).toBe(403);
      expect(refused.body).toContain('This form has expired');

      const created = await form('/connections', { _csrf: browser.csrf, displayName: 'Globex Entra' });
      expect(created.statusCode, created.body).toBe(303);
      expect(created.headers.location).toBe(`${PORTAL}/setup?done=created`);
      const page = await t.svc.app.inject({
        method: 'GET',
        url: `${PORTAL}/setup?done=created`,
        headers: { cookie: browser.cookie },
      });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.body).toContain('Set up single sign-on for Globex');
      expect(page.body).toContain('Globex Entra');
      expect(page.body).toContain('The connection was added.');
      const [connection] = (await api('GET', '/sso-connections', browser)).json<{
        data: { id: string; spEntityId: string; acsUrl: string }[];
      }>().data;
      expect(page.body).toContain(connection?.spEntityId);
      expect(page.body).toContain(connection?.acsUrl);

      const badMetadata = await form(`/connections/${connection?.id ?? ''}/metadata`, {
        _csrf: browser.csrf,
        metadataXml: '',
      });
      expect(badMetadata.statusCode).toBe(400);
      expect(badMetadata.body).toContain('Paste your identity provider');
    });

    it('refuses too many unusable links from one address (429)', async () => {
      const guess = () =>
        t.svc.app.inject({
          method: 'GET',
          url: `${PORTAL}/start?token=${'B'.repeat(43)}`,
          remoteAddress: '203.0.113.9',
        });
      for (let i = 0; i < DEFAULT_FAILURE_RULES.tokenIp.threshold; i += 1) {
        expect((await guess()).statusCode).toBe(400);
      }
      const refused = await guess();
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    });
  });
});
