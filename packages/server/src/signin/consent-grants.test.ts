import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { MINUTE_MS } from '../kernel/clock.js';
import { createAuthHarness, type AuthHarness } from '../test-support/auth-harness.js';
import { describeEachDatabase } from '../test-support/databases.js';

describeEachDatabase('consent grants', (kind) => {
  let h: AuthHarness;
  let userId: string;
  let clientId: string;

  // One app for the file: each test has a user and a client of its own.
  beforeAll(async () => {
    h = await createAuthHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    userId = (await h.given.user()).id;
    clientId = (await h.given.client({ isFirstParty: false, name: 'Photo App' })).clientId;
  });
  const grantRows = () => h.db.selectFrom('consentGrants').selectAll().where('userId', '=', userId).execute();

  it('finds a grant only when it covers every requested scope', async () => {
    const consents = h.engine.consents;
    expect(await consents.findCovering(userId, clientId, [])).toBeNull();
    const grant = await consents.record(userId, clientId, ['openid', 'photos']);
    expect(await consents.findCovering(userId, clientId, ['photos'])).toMatchObject({ id: grant.id });
    expect(await consents.findCovering(userId, clientId, [])).toMatchObject({ id: grant.id });
    expect(await consents.findCovering(userId, clientId, ['photos', 'email'])).toBeNull();
    expect(await consents.findCovering(userId, 'other-client', ['photos'])).toBeNull();
  });

  it('merges later approvals into the one active grant', async () => {
    const consents = h.engine.consents;
    const first = await consents.record(userId, clientId, ['openid', 'photos']);
    h.clock.advance(MINUTE_MS);
    const same = await consents.record(userId, clientId, ['photos']);
    expect(same).toMatchObject({ id: first.id, updatedAt: first.updatedAt });
    const merged = await consents.record(userId, clientId, ['email', 'photos']);
    expect(merged).toMatchObject({
      id: first.id,
      scopes: ['openid', 'photos', 'email'],
      grantedAt: first.grantedAt,
      updatedAt: h.clock.now(),
    });
    expect(await grantRows()).toHaveLength(1);
    expect((await h.auditKinds({ userId })).filter((k) => k === 'oauth.consent.granted')).toHaveLength(2);
  });

  it('ends in one active grant when first consents race', async () => {
    await Promise.all(
      Array.from({ length: 5 }, (_, i) => h.engine.consents.record(userId, clientId, [`scope${i}`])),
    );
    const rows = await grantRows();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]?.scopesJson ?? '[]')).toHaveLength(5);
  });

  it('revokes a grant once; unknown, foreign and revoked grants are 400; a later consent starts anew', async () => {
    const consents = h.engine.consents;
    const grant = await consents.record(userId, clientId, ['photos']);
    const other = (await h.given.user()).id;
    await expect(consents.revoke(other, grant.id)).rejects.toMatchObject({ status: 400 });
    expect(await consents.revoke(userId, grant.id, { actorType: 'operator', actorId: 'op_1' })).toEqual({
      id: grant.id,
      revokedAt: new Date(h.clock.now()).toISOString(),
    });
    await expect(consents.revoke(userId, grant.id)).rejects.toMatchObject({
      status: 400,
      code: 'invalid_request',
    });
    await expect(consents.revoke(userId, 'cgr_unknown')).rejects.toMatchObject({ status: 400 });
    expect(await consents.findCovering(userId, clientId, ['photos'])).toBeNull();
    expect(await consents.list(userId)).toEqual([]);

    const again = await consents.record(userId, clientId, ['photos']);
    expect(again.id).not.toBe(grant.id);
    expect(await consents.list(userId)).toMatchObject([
      { id: again.id, clientName: 'Photo App', scopes: ['photos'] },
    ]);
    const revokedEvent = await h.db
      .selectFrom('auditEvents')
      .selectAll()
      .where('kind', '=', 'oauth.consent.revoked')
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow();
    expect(revokedEvent).toMatchObject({ actorType: 'operator', actorId: 'op_1', userId });
  });
});
