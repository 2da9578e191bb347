import { afterAll, beforeAll, expect, it } from 'vitest';
import { HOUR_MS } from '../../kernel/clock.js';
import { authorizeQuery, pkcePair } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { createHostedTestApp, uniqueName, type HostedTestApp } from '../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../test-support/inject-browser.js';

const NEW_PASSWORD = 'a brand new passphrase';

/**
 * Signups with a password are counted per client address on every surface (`rateLimits.signup`): each
 * hashes a password and creates an account, so an address past the limit is refused before either.
 */
describeAboveStorage('the signup limit per address', (kind) => {
  let h: HostedTestApp;
  let clientId: string;
  beforeAll(async () => {
    h = await createHostedTestApp(kind, { rateLimits: { signup: { ip: { limit: 2, windowMs: HOUR_MS } } } });
    clientId = (await h.given.client()).clientId;
  });
  afterAll(async () => {
    await h?.close();
  });

  const hostedSignup = async (email: string) => {
    const b = new InjectBrowser(h);
    await b.follow(await b.authorize(authorizeQuery(clientId, {}, pkcePair().challenge)));
    await b.click('Create an account');
    return b.post('/signup/submit', { display_name: 'New Person', email, password: NEW_PASSWORD });
  };
  const directSignup = (email: string) =>
    h.inject({
      method: 'POST',
      url: `${h.authBase}/signup`,
      headers: { 'content-type': 'application/json' },
      payload: { displayName: 'New Person', email, password: NEW_PASSWORD, clientId },
    });
  const accounts = async () =>
    (await h.t.svc.database.db.selectFrom('users').select('email').execute()).map((row) => row.email);

  it('refuses the signup past the limit on the hosted page and the direct helper, and creates nothing', async () => {
    const emails = [1, 2, 3, 4].map(() => `${uniqueName('signup')}@example.com`);
    expect((await hostedSignup(emails[0]!)).statusCode).toBe(303);
    expect((await directSignup(emails[1]!)).statusCode).toBe(200);

    const page = await hostedSignup(emails[2]!);
    expect(page.statusCode).toBe(429);
    expect(page.headers['retry-after']).toBe('3600');
    expect(page.body).toContain('Too many signups from this address; try again in 60 minutes.');
    const direct = await directSignup(emails[3]!);
    expect(direct.statusCode).toBe(429);
    expect(direct.json()).toMatchObject({ error: 'too_many_attempts' });
    expect(await accounts()).not.toEqual(expect.arrayContaining([emails[2], emails[3]]));

    h.t.clock.advance(HOUR_MS);
    expect((await hostedSignup(emails[2]!)).statusCode).toBe(303);
    expect(await accounts()).toContain(emails[2]);
  });
});
