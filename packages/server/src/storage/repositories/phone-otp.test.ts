import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';
import { isUniqueViolation } from '../database.js';
import { phoneOtpRepository } from './phone-otp.js';

describeEachDatabase('phone OTP storage (migration 0007)', (kind) => {
  let t: TestSvc;
  beforeAll(async () => {
    t = await createTestSvc(kind);
  });
  afterAll(() => t.close());

  const newUser = (n: number) =>
    t.svc.admin.createUserAsync({ displayName: 'Pat', email: `pat${n}@example.com` });

  it('keeps phone numbers unique when set, and allows many users without one', async () => {
    const repo = phoneOtpRepository(t.svc.database.db);
    const [a, b] = [await newUser(1), await newUser(2)];
    await newUser(3); // a third user without a number coexists with b's NULL
    await repo.setUserPhone(a.id, '+12015550199', t.clock.now());
    const error: unknown = await repo.setUserPhone(b.id, '+12015550199', t.clock.now()).catch((e) => e);
    expect(isUniqueViolation(error)).toBe(true);
    expect(await repo.findAccountByPhone('+12015550199')).toEqual({ userId: a.id, active: true });
    expect(await repo.findAccountByPhone('+12015550198')).toBeUndefined();
  });

  it('counts attempts up to the limit and consumes a challenge once', async () => {
    const repo = phoneOtpRepository(t.svc.database.db);
    const now = t.clock.now();
    await repo.insert({
      id: 'poc_1',
      challengeHash: 'h1',
      purpose: 'login',
      phoneE164: '+12015550197',
      userId: null,
      clientId: 'app',
      organizationId: null,
      signupTokenHash: null,
      signupData: { displayName: 'x', organizationName: null, customFields: { a: 1 } },
      createdAt: now,
      expiresAt: now + 1000,
    });
    const counted = [];
    for (let i = 0; i < 4; i += 1) counted.push(await repo.countAttempt('h1', now, 3));
    expect(counted).toEqual([true, true, true, false]);
    expect(await repo.findByHash('h1')).toMatchObject({
      attempts: 3,
      signupData: { customFields: { a: 1 } },
      consumedAt: null,
    });
    const consumed = await Promise.all([repo.consume('h1', now), repo.consume('h1', now)]);
    expect(consumed.filter(Boolean)).toHaveLength(1);
    expect(await repo.countAttempt('h1', now, 10)).toBe(false);
    expect((await repo.findByHash('h1'))?.consumedAt).toBe(now);
  });
});
