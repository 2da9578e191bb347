import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { svcEmailInvitationSchema } from '@svc/contract';
import { DAY_MS } from '../kernel/clock.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { createInvitationHarness, inviteToken, type InvitationHarness } from '../test-support/invitations.js';

const API = '/svc/admin/auth/api';

describeAboveStorage('invitation operator routes', (kind) => {
  let h: InvitationHarness;
  let app: FastifyInstance;
  let organizationId: string;

  beforeEach(async () => {
    h = await createInvitationHarness(kind);
    app = h.t.svc.app;
    organizationId = (await h.t.svc.admin.createOrganizationAsync({ name: 'Acme Corp' })).id;
  });
  afterEach(async () => {
    await h.close();
  });

  const post = (url: string, payload?: unknown, headers: Record<string, string> = h.t.operator) =>
    app.inject({
      method: 'POST',
      url: `${API}${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const get = (url: string) => app.inject({ method: 'GET', url: `${API}${url}`, headers: h.t.operator });

  it('creates (201, no token in the answer), reads, lists, resends and revokes', async () => {
    const created = await post(`/organizations/${organizationId}/invitations`, {
      Email: 'invitee@example.com',
      role: 'Admin',
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const body = svcEmailInvitationSchema.strict().parse(created.json());
    expect(body).toMatchObject({
      organizationId,
      email: 'invitee@example.com',
      role: 'admin',
      status: 'pending',
    });
    const [first] = await h.smtp.waitFor(1);
    const token = inviteToken(first?.text ?? '');
    expect(created.body).not.toContain(token);

    const list = await app.inject({
      method: 'GET',
      url: `${API}/organizations/${organizationId}/invitations?limit=5`,
      headers: h.t.operator,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ data: [body], nextCursor: null });
    const read = await get(`/invitations/${body.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.headers['cache-control']).toBe('no-store');
    expect(read.json()).toEqual(body);

    h.t.clock.advance(DAY_MS);
    const resent = await post(`/invitations/${body.id}/resend`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ id: body.id, status: 'pending' });
    await h.smtp.waitFor(2);
    expect(inviteToken(h.smtp.messages[1]?.text ?? '')).not.toBe(token);

    const revoked = await post(`/invitations/${body.id}/revoke`, { reason: 'left the team' });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ id: body.id, status: 'revoked' });
    const again = await post(`/invitations/${body.id}/revoke`);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'invalid_operation' });
    // Read in any status; an expired one says so.
    expect((await get(`/invitations/${body.id}`)).json()).toMatchObject({ status: 'revoked' });
    const later = svcEmailInvitationSchema
      .strict()
      .parse(
        (
          await post(`/organizations/${organizationId}/invitations`, { email: 'b@example.com', role: 'x' })
        ).json(),
      );
    h.t.clock.advance(30 * DAY_MS);
    expect((await get(`/invitations/${later.id}`)).json()).toMatchObject({ status: 'expired' });
    const ofStatus = async (status: string) => {
      const response = await get(`/organizations/${organizationId}/invitations?status=${status}`);
      return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
    };
    expect((await ofStatus('expired')).body).toMatchObject({ data: [{ id: later.id }] });
    expect((await ofStatus('revoked')).body).toMatchObject({ data: [{ id: body.id }] });
    expect((await ofStatus('pending')).body).toMatchObject({ data: [] });
    expect(await ofStatus('lost')).toMatchObject({
      status: 400,
      body: { details: [{ path: 'status', message: expect.stringContaining('pending, accepted') }] },
    });
    expect((await get('/invitations/inv_missing')).statusCode).toBe(404);
    expect((await get('/invitations/inv_%00x')).statusCode).toBe(400);
  });

  it('answers a resend within the interval with 429 and sends nothing', async () => {
    const created = await post(`/organizations/${organizationId}/invitations`, {
      email: 'a@example.com',
      role: 'member',
    });
    const id = (created.json() as { id: string }).id;
    const resent = await post(`/invitations/${id}/resend`);
    expect(resent.statusCode).toBe(429);
    expect(resent.json()).toMatchObject({ error: 'rate_limited' });
    await h.smtp.waitFor(1);
    expect(h.smtp.messages).toHaveLength(1);
  });

  it('hides every route from a caller without the operator token', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }]) {
      const response = await post(
        `/organizations/${organizationId}/invitations`,
        { email: 'a@example.com', role: 'x' },
        headers,
      );
      expect(response.statusCode).toBe(404);
    }
    expect(await h.t.svc.database.db.selectFrom('invitations').selectAll().execute()).toEqual([]);
  });

  it('answers malformed input with 4xx, never 5xx, and stores nothing', async () => {
    const url = `/organizations/${organizationId}/invitations`;
    const bodies: unknown[] = [
      undefined,
      [],
      'text',
      {},
      { email: 'a@example.com' },
      { email: 'nope', role: 'member' },
      { email: 'a@example.com', role: 'mem\u0000ber' },
      { email: 'a@example.com', role: 'x'.repeat(65) },
      { email: 'a@example.com', role: 'member', clientId: 'missing' },
      { email: 'a@example.com', role: 'member', redirectUri: 'not a uri' },
      { email: 'a@example.com', role: 'member', customFields: { a: 1 } },
      { email: 'a@example.com', role: 'member', customFields: 'x' },
      { email: 42, role: ['member'] },
    ];
    for (const payload of bodies) {
      const response = await post(url, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, JSON.stringify(payload)).toBeLessThan(500);
    }
    const raw = await app.inject({
      method: 'POST',
      url: `${API}${url}`,
      headers: { ...h.t.operator, 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(raw.statusCode).toBe(400);
    const others = [
      await post('/organizations/org_missing/invitations', { email: 'a@example.com', role: 'member' }),
      await post('/invitations/inv_missing/resend'),
      await post('/invitations/inv_missing/revoke', { reason: 'x' }),
      await app.inject({ method: 'GET', url: `${API}${url}?limit=0`, headers: h.t.operator }),
      await app.inject({ method: 'GET', url: `${API}${url}?cursor=%00bad`, headers: h.t.operator }),
      await app.inject({
        method: 'GET',
        url: `${API}/organizations/org_missing/invitations`,
        headers: h.t.operator,
      }),
      // Ids no record can have are refused before any lookup (PostgreSQL cannot compare with a NUL).
      await post('/organizations/org_%00/invitations', { email: 'a@example.com', role: 'member' }),
      await post('/invitations/inv_%0Ax/resend'),
      await post('/invitations/inv_%00/revoke', { reason: 'x' }),
      await app.inject({
        method: 'GET',
        url: `${API}/organizations/org_%00/invitations`,
        headers: h.t.operator,
      }),
    ];
    expect(others.map((r) => r.statusCode)).toEqual([404, 404, 404, 400, 400, 404, 400, 400, 400, 400]);
    expect(others.at(-1)?.json()).toMatchObject({ message: expect.stringContaining('organizationId') });
    expect(await h.t.svc.database.db.selectFrom('invitations').selectAll().execute()).toEqual([]);
    expect(h.smtp.messages).toEqual([]);
  });
});
