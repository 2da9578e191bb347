import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, startSilentDnsServer, type TestDnsServer } from '../../test-support/dns-server.js';
import { dnsTxtLookup } from './txt-lookup.js';

describe('TXT look-ups through node:dns against a name server on loopback', () => {
  let dns: TestDnsServer;
  beforeAll(async () => {
    dns = await startDnsServer();
  });
  afterAll(() => dns.close());

  const lookup = () => dnsTxtLookup({ servers: [dns.address], timeoutMs: 2_000 });

  it('answers every TXT record at the name, each record’s character-strings joined', async () => {
    dns.setTxt('_svc-verify.acme.test', [['v=spf1 -all'], ['svc-domain-verification=', 'abc', 'def']]);
    expect(await lookup()('_svc-verify.acme.test')).toEqual({
      kind: 'records',
      records: ['v=spf1 -all', 'svc-domain-verification=abcdef'],
    });
    expect(dns.asked).toContain('_svc-verify.acme.test');
  });

  it('reads a record of two full 255-character strings', async () => {
    const long = 'x'.repeat(255);
    dns.setTxt('long.acme.test', [[long, long]]);
    expect(await lookup()('long.acme.test')).toEqual({ kind: 'records', records: [long + long] });
  });

  it('answers none for a name that does not exist and for a name without TXT records', async () => {
    expect(await lookup()('missing.acme.test')).toEqual({ kind: 'none' });
    dns.setTxt('empty.acme.test', []);
    expect(await lookup()('empty.acme.test')).toEqual({ kind: 'none' });
  });

  it('answers an error, not none, when the name server fails', async () => {
    dns.failName('broken.acme.test');
    expect(await lookup()('broken.acme.test')).toEqual({ kind: 'error', code: 'ESERVFAIL' });
  });

  it('answers an error within its deadline when the name server never answers', async () => {
    const silent = await startSilentDnsServer();
    try {
      const started = performance.now();
      const answer = await dnsTxtLookup({ servers: [silent.address], timeoutMs: 200 })('acme.test');
      expect(answer).toEqual({ kind: 'error', code: 'ETIMEOUT' });
      expect(performance.now() - started).toBeLessThan(1_500);
    } finally {
      await silent.close();
    }
  });

  it('answers an error when nothing listens at the server’s address', async () => {
    const gone = await startSilentDnsServer();
    await gone.close();
    const answer = await dnsTxtLookup({ servers: [gone.address], timeoutMs: 500 })('acme.test');
    expect(answer.kind).toBe('error');
  });
});
