import { svcOidcProviderSummarySchema } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectHarness, type DirectHarness } from '../test-support/direct-test-app.js';

/** GET /svc/auth/oidc/providers: the enabled providers, for an app-owned sign-in UI's buttons. */
describe('GET /oidc/providers', () => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness();
  });
  afterAll(() => h.close());

  const providers = async () => {
    const response = await h.inject({ method: 'GET', url: '/svc/auth/oidc/providers' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return response
      .json<{ data: unknown[] }>()
      .data.map((entry) => svcOidcProviderSummarySchema.parse(entry));
  };

  it('lists the enabled providers oldest first, with names and logos only, and drops a disabled one at once', async () => {
    expect(await providers()).toEqual([]);
    const callback = ['https://id.example.com/svc/auth/oidc/callback'];
    const github = await h.t.svc.admin.createOidcConnectionAsync({
      providerType: 'GitHub',
      clientId: 'gh-client',
      clientSecret: 'gh-secret-value',
      allowedCallbackUris: callback,
    });
    h.t.clock.advance(1000);
    const corporate = await h.t.svc.admin.createOidcConnectionAsync({
      providerType: 'Custom',
      displayName: 'Corporate',
      clientId: 'corp-client',
      clientSecret: 'corp-secret-value',
      discoveryUrl: 'https://idp.example.com/.well-known/openid-configuration',
      allowedCallbackUris: callback,
    });
    const listed = await providers();
    expect(listed).toEqual([
      {
        connectionId: github.id,
        providerType: 'GitHub',
        displayName: 'GitHub',
        logoDataUrl: expect.stringMatching(/^data:image\//),
      },
      { connectionId: corporate.id, providerType: 'Custom', displayName: 'Corporate', logoDataUrl: null },
    ]);
    expect(JSON.stringify(listed)).not.toContain('secret');
    await h.t.svc.admin.disableOidcConnectionAsync(github.id);
    expect((await providers()).map((entry) => entry.connectionId)).toEqual([corporate.id]);
    expect(await h.t.svc.auth.listEnabledProvidersAsync()).toEqual({ data: await providers() });
  });
});
