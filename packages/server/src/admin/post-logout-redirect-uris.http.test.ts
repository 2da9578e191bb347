import { svcClientSchema, svcCreatedClientSchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeAboveStorage } from '../test-support/databases.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

const CLIENTS = '/svc/admin/auth/api/clients';

describeAboveStorage('client postLogoutRedirectUris', (kind) => {
  let t: TestSvc;

  beforeAll(async () => {
    t = await createTestSvc(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (payload: Record<string, unknown>) =>
    t.svc.app.inject({
      method: 'POST',
      url: CLIENTS,
      headers: t.operator,
      payload: { name: 'App', audience: 'https://api.example.com', redirectUris: [], ...payload },
    });

  it('are stored as given (without repeats), returned on create and on reads, and default to none', async () => {
    const uris = ['https://app.example.com/bye', 'com.example.app:/signed-out'];
    const created = await create({ clientId: 'with-uris', postLogoutRedirectUris: [...uris, uris[0]] });
    expect(created.statusCode).toBe(201);
    expect(svcCreatedClientSchema.parse(created.json())).toMatchObject({ postLogoutRedirectUris: uris });
    expect((await create({ clientId: 'without-uris' })).json()).toMatchObject({ postLogoutRedirectUris: [] });

    const listed = await t.svc.app.inject({ method: 'GET', url: CLIENTS, headers: t.operator });
    const clients = listed.json<{ data: unknown[] }>().data.map((client) => svcClientSchema.parse(client));
    expect(Object.fromEntries(clients.map((c) => [c.clientId, c.postLogoutRedirectUris]))).toEqual({
      'with-uris': uris,
      'without-uris': [],
    });

    const inProcess = await t.svc.admin.createClientAsync({
      clientId: 'in-process',
      name: 'App',
      audience: 'https://api.example.com',
      redirectUris: [],
      postLogoutRedirectUris: ['https://app.example.com/bye'],
    });
    expect(inProcess.postLogoutRedirectUris).toEqual(['https://app.example.com/bye']);
  });

  it.each([
    ['a relative reference', '/signed-out'],
    ['a fragment', 'https://app.example.com/bye#top'],
    ['a script scheme', 'javascript:alert(1)'],
    ['a control character', 'https://app.example.com/\u0000'],
  ])('refuses %s with a 400 that names the field', async (_name, uri) => {
    const response = await create({ clientId: `bad-${uri.length}`, postLogoutRedirectUris: [uri] });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toMatch(/postLogoutRedirectUris\.0/);
  });
});
