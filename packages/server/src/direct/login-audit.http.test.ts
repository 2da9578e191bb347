import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeAboveStorage } from '../test-support/databases.js';
import {
  createDirectHarness,
  DIRECT_PASSWORD,
  unique,
  type AuditRow,
  type DirectHarness,
} from '../test-support/direct-test-app.js';

/**
 * Direct password sign-in is audited as the hosted password step is (docs/reference/events.md):
 * `oauth.direct_login.succeeded` with the user, `oauth.direct_login.failed` without one, so that a
 * failure never tells a known address from an unknown one; neither event holds the email or password.
 */
describeAboveStorage('direct password sign-in: audit events', (kind) => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness(kind);
  });
  afterAll(() => h.close());

  const ROUTE = '/svc/auth/password/login';
  const WRONG = 'not the password';

  /** The events of `kind` for `clientId` written by the action. */
  async function written(kind: string, clientId: string, action: () => Promise<unknown>) {
    const before = (await h.events(kind, clientId)).length;
    await action();
    return (await h.events(kind, clientId)).slice(before);
  }

  const mentions = (events: readonly AuditRow[], text: string) =>
    events.some((event) => JSON.stringify(event).includes(text));

  it('records a success with the user, the client, the route and the address', async () => {
    const web = await h.given.client();
    const ann = await h.given.user();
    const events = await written('oauth.direct_login.succeeded', web.clientId, () =>
      h.login(ann.email, web.clientId),
    );
    expect(events).toEqual([
      {
        kind: 'oauth.direct_login.succeeded',
        actorType: 'user',
        actorId: ann.id,
        userId: ann.id,
        clientId: web.clientId,
        ipAddress: '127.0.0.1',
        data: { route: ROUTE, method: 'password' },
      },
    ]);
    expect(mentions(events, ann.email) || mentions(events, DIRECT_PASSWORD)).toBe(false);
    expect(await h.events('oauth.direct_login.failed', web.clientId)).toEqual([]);
  });

  it('records a wrong password and an unknown address alike, without the user, email or password', async () => {
    const web = await h.given.client();
    const ann = await h.given.user();
    const unknown = `${unique('nobody')}@example.com`;
    const events = await written('oauth.direct_login.failed', web.clientId, async () => {
      for (const email of [ann.email, unknown]) {
        const response = await h.post('/password/login', { email, password: WRONG, clientId: web.clientId });
        expect(response.statusCode, response.body).toBe(401);
        expect(response.json()).toMatchObject({ error: 'invalid_credentials' });
      }
    });
    const failure = {
      kind: 'oauth.direct_login.failed',
      actorType: 'user',
      actorId: null,
      userId: null,
      clientId: web.clientId,
      ipAddress: '127.0.0.1',
      data: { route: ROUTE, method: 'password' },
    };
    expect(events).toEqual([failure, failure]);
    for (const secret of [ann.email, unknown, WRONG]) expect(mentions(events, secret)).toBe(false);
    expect(await h.events('oauth.direct_login.succeeded', web.clientId)).toEqual([]);
  });

  it('records nothing of the sort for a client that was turned away before the password', async () => {
    const confidential = await h.given.client({ tokenEndpointAuthMethod: 'client_secret_basic' });
    const ann = await h.given.user();
    const response = await h.post('/password/login', {
      email: ann.email,
      password: WRONG,
      clientId: confidential.clientId,
    });
    expect(response.statusCode, response.body).toBe(401);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
    expect(await h.events('oauth.direct_login.failed', confidential.clientId)).toEqual([]);
    expect(await h.events('oauth.direct_login.rejected', confidential.clientId)).toHaveLength(1);
  });

  it('names the in-process operation when the facade is called directly', async () => {
    const web = await h.given.client();
    const ann = await h.given.user();
    const events = await written('oauth.direct_login.succeeded', web.clientId, () =>
      h.t.svc.auth.loginWithPasswordAsync({
        email: ann.email,
        password: DIRECT_PASSWORD,
        clientId: web.clientId,
      }),
    );
    expect(events.map((event) => [event.data, event.ipAddress])).toEqual([
      [{ route: 'loginWithPasswordAsync', method: 'password' }, null],
    ]);
  });
});
