import { svcCreatedClientSchema, svcLoginResultSchema } from '@svc/contract';
import { expect, it } from 'vitest';
import { basicAuth, form } from '../test-support/oauth-http.js';
import { endedSession, probeSession } from '../test-support/session-probe.js';
import { describeOnTwoNodes } from '../test-support/svc-cluster.js';
import { TEST_ADMIN_TOKEN } from '../test-support/test-svc.js';

const ADMIN = '/svc/admin/auth/api';
const PASSWORD = 'correct horse battery staple';

/**
 * docs/reference/organizations.md "Deactivation": it takes effect at once, on every node: one node
 * deactivates, the other, which has just served and verified the same tokens and client, refuses them on its
 * next request.
 */
describeOnTwoNodes('deactivation across two nodes on one PostgreSQL', (nodes) => {
  const patch = (path: string, payload: object) =>
    nodes.operatorNode.svc.app.inject({
      method: 'PATCH',
      url: `${ADMIN}${path}`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload,
    });

  it('a user deactivated on one node is refused by the other at once, tokens it verified before included', async () => {
    const admin = nodes.operatorNode.svc.admin;
    const client = await admin.createClientAsync({
      clientId: 'web',
      name: 'Web',
      audience: 'https://api.example.com',
      redirectUris: ['https://app.example.com/callback'],
      isFirstParty: true,
    });
    const user = await admin.createUserAsync({
      displayName: 'Ann',
      email: 'ann@example.com',
      password: PASSWORD,
    });
    const login = await nodes.servingNode.svc.app.inject({
      method: 'POST',
      url: `${nodes.servingNode.svc.config.authBase}/password/login`,
      payload: { email: user.email, password: PASSWORD, clientId: client.clientId },
    });
    const tokens = svcLoginResultSchema.parse(login.json()).tokens!;
    const live = await probeSession(nodes.servingNode.svc, tokens, client);
    expect(live).toMatchObject({ userinfo: 200, validated: true, refresh: 'ok' });

    expect((await patch(`/users/${user.id}`, { active: false })).statusCode).toBe(200);
    // The access token the serving node verified (and remembers) a moment ago, and the rotated pair.
    expect(
      await probeSession(nodes.servingNode.svc, { ...live.next!, accessToken: tokens.accessToken }, client),
    ).toEqual(endedSession());
  });

  it('a client deactivated, or its secret rotated, on one node fails authentication at the other at once', async () => {
    const created = svcCreatedClientSchema.parse(
      await nodes.operatorNode.svc.admin.createClientAsync({
        clientId: 'backend',
        name: 'Backend',
        audience: 'https://api.example.com',
        redirectUris: [],
        tokenEndpointAuthMethod: 'client_secret_basic',
        allowClientCredentials: true,
      }),
    );
    const grant = (secret: string) =>
      nodes.servingNode.svc.app.inject({
        method: 'POST',
        url: `${nodes.servingNode.svc.config.authBase}/token`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basicAuth(created.clientId, secret),
        },
        payload: form({ grant_type: 'client_credentials' }),
      });
    const oldSecret = created.clientSecret ?? '';
    expect((await grant(oldSecret)).statusCode).toBe(200);

    const rotated = await nodes.operatorNode.svc.admin.rotateClientSecretAsync(created.clientId);
    expect((await grant(oldSecret)).statusCode).toBe(401);
    expect((await grant(rotated.clientSecret ?? '')).statusCode).toBe(200);

    expect((await patch(`/clients/${created.clientId}`, { active: false })).statusCode).toBe(200);
    const refused = await grant(rotated.clientSecret ?? '');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: 'invalid_client' });
  });
});
