import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../test-support/fake-clock.js';
import { buildMetadata, Discovery } from './discovery.js';

const ISSUER = 'https://id.example.com/svc/auth';

describe('discovery metadata', () => {
  it('always answers query mode only and no request objects', () => {
    const metadata = buildMetadata(ISSUER, true, [], []);
    expect(metadata).toMatchObject({
      issuer: ISSUER,
      response_modes_supported: ['query'],
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
  });

  it('adds the OpenID fields in provider mode and drops them otherwise', () => {
    const on = buildMetadata(ISSUER, true, [], [{ userinfo_endpoint: `${ISSUER}/userinfo` }]);
    expect(on).toMatchObject({
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      userinfo_endpoint: `${ISSUER}/userinfo`,
    });
    expect(on.claims_supported).toEqual(expect.arrayContaining(['sub', 'email', 'org_id', 'amr']));
    const off = buildMetadata(ISSUER, false, [], [{ userinfo_endpoint: `${ISSUER}/userinfo` }]);
    for (const field of [
      'subject_types_supported',
      'id_token_signing_alg_values_supported',
      'claims_supported',
      'userinfo_endpoint',
    ]) {
      expect(off).not.toHaveProperty(field);
    }
  });

  it('lists the sorted union of client scopes, merged with openid/profile/email in provider mode, never auth:*', () => {
    const lists = [['read:orders', 'openid', 'auth:internal'], ['offline_access', 'email'], []];
    expect(buildMetadata(ISSUER, true, lists, []).scopes_supported).toEqual([
      'email',
      'offline_access',
      'openid',
      'profile',
      'read:orders',
    ]);
    expect(buildMetadata(ISSUER, false, lists, []).scopes_supported).toEqual([
      'email',
      'offline_access',
      'openid',
      'read:orders',
    ]);
    expect(buildMetadata(ISSUER, false, [], []).scopes_supported).toEqual([]);
  });

  it('advertises offline_access only when a client allowlists it', () => {
    expect(buildMetadata(ISSUER, true, [['openid']], []).scopes_supported).not.toContain('offline_access');
  });

  it('serves a cached document until invalidated or stale', async () => {
    const clock = new FakeClock();
    let lists: string[][] = [['a']];
    const discovery = new Discovery({
      issuer: ISSUER,
      openIdEnabled: false,
      scopes: { allowedScopeLists: async () => lists },
      contributions: [],
      clock,
      cacheTtlMs: 1000,
    });
    const first = await discovery.document();
    lists = [['a', 'b']];
    expect((await discovery.document()).etag).toBe(first.etag);
    clock.advance(1000);
    const second = await discovery.document();
    expect(JSON.parse(second.body.toString()).scopes_supported).toEqual(['a', 'b']);
    lists = [['c']];
    discovery.invalidate();
    expect(JSON.parse((await discovery.document()).body.toString()).scopes_supported).toEqual(['c']);
  });
  it('answers from memory while fresh, reads once for concurrent requests, and keeps an unchanged document', async () => {
    const clock = new FakeClock();
    let reads = 0;
    let lists: string[][] = [['a']];
    const discovery = new Discovery({
      issuer: ISSUER,
      openIdEnabled: false,
      scopes: { allowedScopeLists: async () => ((reads += 1), lists) },
      contributions: [],
      clock,
      cacheTtlMs: 1000,
    });
    expect(discovery.current()).toBeUndefined();
    const [first, same] = await Promise.all([discovery.document(), discovery.document()]);
    expect(same).toBe(first);
    expect(reads).toBe(1);
    expect(discovery.current()).toBe(first);
    expect(reads).toBe(1);

    clock.advance(1000);
    expect(discovery.current()).toBeUndefined();
    expect(await discovery.document()).toBe(first);
    expect(reads).toBe(2);

    // A read that started before invalidate() is not kept: the client change it missed must show.
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const scopes = {
      allowedScopeLists: async () => {
        const seen = lists;
        await gate;
        return seen;
      },
    };
    const slow = new Discovery({ issuer: ISSUER, openIdEnabled: false, scopes, contributions: [], clock });
    const started = slow.document();
    lists = [['b']];
    slow.invalidate();
    release();
    const scopesOf = (doc: { body: Buffer }) =>
      (JSON.parse(doc.body.toString()) as { scopes_supported: string[] }).scopes_supported;
    expect(scopesOf(await started)).toEqual(['a']);
    expect(slow.current()).toBeUndefined();
    expect(scopesOf(await slow.document())).toEqual(['b']);
  });
});
