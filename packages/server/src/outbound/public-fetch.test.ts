import { BlockList } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../test-support/federation/loopback-server.js';
import { allowedNetworks, hostLookup, isPublicAddress, PublicFetcher } from './public-fetch.js';

describe('isPublicAddress', () => {
  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback, anywhere in 127/8', '127.255.0.9'],
    ['RFC 1918 10/8', '10.0.0.1'],
    ['RFC 1918 172.16/12', '172.16.0.1'],
    ['RFC 1918 172.16/12, its end', '172.31.255.255'],
    ['RFC 1918 192.168/16', '192.168.1.10'],
    ['RFC 6598 shared 100.64/10', '100.64.0.1'],
    ['RFC 6598, its end', '100.127.255.254'],
    ['link-local', '169.254.1.1'],
    ['cloud metadata', '169.254.169.254'],
    ['unspecified', '0.0.0.0'],
    ['this network', '0.1.2.3'],
    ['multicast', '224.0.0.251'],
    ['reserved and broadcast', '255.255.255.255'],
    ['documentation', '203.0.113.7'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local, upper end of fe80::/10', 'febf::1'],
    ['IPv6 unique-local fc00::/7', 'fc00::1'],
    ['IPv6 unique-local fd', 'fd12:3456:789a::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped loopback, hex form', '::ffff:7f00:1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-mapped cloud metadata', '::ffff:169.254.169.254'],
    ['IPv4-mapped shared', '::ffff:100.64.0.1'],
    ['NAT64 of a private address', '64:ff9b::a00:1'],
    ['local-use NAT64', '64:ff9b:1::a00:1'],
    ['6to4 of loopback', '2002:7f00:1::1'],
    ['6to4 of a public address, refused whole', '2002:808:808::1'],
    ['NAT64 of a public address, refused whole', '64:ff9b::808:808'],
    ['IPv4-compatible loopback (::/96)', '::127.0.0.1'],
    ['IPv4-compatible loopback, hex form', '::7f00:1'],
    ['IPv4-compatible private', '::10.0.0.1'],
    ['IPv4-compatible of a public address, refused whole', '::8.8.8.8'],
    ['IPv4-mapped of a public address, refused whole (::ffff:0:0/96)', '::ffff:8.8.8.8'],
    ['IPv4-mapped, written in full', '0:0:0:0:0:ffff:808:808'],
    ['IPv4-translated (::ffff:0:0:0/96)', '::ffff:0:a00:1'],
    ['Teredo (2001::/32), which tunnels to an IPv4 address', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['benchmarking (2001:2::/48)', '2001:2::1'],
    ['6to4 relay anycast', '192.88.99.1'],
    ['not an address', 'localhost'],
  ])('refuses %s (%s)', (_name, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['a public IPv4 address', '8.8.8.8'],
    ['just past 172.16/12', '172.32.0.1'],
    ['just past 100.64/10', '100.128.0.1'],
    ['a public IPv6 address', '2606:4700:4700::1111'],
    ['a public IPv6 address near 2001::/23', '2001:4860:4860::8888'],
    ['another public IPv4 address', '1.1.1.1'],
  ])('allows %s (%s)', (_name, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('allowedNetworks', () => {
  it('reads addresses and CIDR ranges of both families', () => {
    const list = allowedNetworks(['10.20.0.0/16', '192.168.1.5', 'fd00::/8']);
    if ('invalid' in list) throw new Error(`refused ${list.invalid}`);
    expect(list.check('10.20.3.4', 'ipv4')).toBe(true);
    expect(list.check('10.21.0.1', 'ipv4')).toBe(false);
    expect(list.check('192.168.1.5', 'ipv4')).toBe(true);
    expect(list.check('192.168.1.6', 'ipv4')).toBe(false);
    expect(list.check('fd12::1', 'ipv6')).toBe(true);
  });

  it.each(['idp.internal', '10.0.0.0/33', '10.0.0.0/x', '10.0.0.0/8/8', 'fd00::/129', ''])(
    'names the entry it cannot read (%s)',
    (entry) => {
      expect(allowedNetworks(['10.0.0.0/8', entry])).toEqual({ invalid: entry });
    },
  );
});

describe('PublicFetcher on loopback', () => {
  let server: LoopbackServer;
  let origin: string;
  const fetcher = new PublicFetcher({
    lookup: hostLookup({ servers: null, timeoutMs: 1_000 }),
    timeoutMs: 1_000,
    caCertificates: [],
    allowedNetworks: new BlockList(),
  });
  const get = (path: string, options: { loopback?: boolean; maxBytes?: number; origin?: string } = {}) =>
    fetcher.fetch({
      url: new URL(path, options.origin ?? origin),
      accept: 'application/json',
      maxBytes: options.maxBytes ?? 1_000,
      loopback: options.loopback ?? true,
    });

  beforeAll(async () => {
    server = await startLoopbackServer();
    origin = server.origin;
    server.serve((request, response) => {
      switch (request.url) {
        case '/doc':
          response.setHeader('content-type', 'application/json');
          response.setHeader('cache-control', 'max-age=60');
          response.end(
            JSON.stringify({ accept: request.headers.accept, agent: request.headers['user-agent'] }),
          );
          return;
        case '/moved':
          response.statusCode = 302;
          response.setHeader('location', '/doc');
          response.end();
          return;
        case '/big':
          // Streamed without a content-length: the size is counted as it arrives.
          response.write('x'.repeat(800));
          response.end('x'.repeat(800));
          return;
        case '/silent':
          return;
        default:
          response.statusCode = 404;
          response.end();
      }
    });
  });
  afterAll(() => server.close());

  it('fetches http on a loopback host in development, with its headers', async () => {
    const fetched = await get('/doc');
    if (!fetched.ok) throw new Error(fetched.reason);
    expect(JSON.parse(fetched.body)).toEqual({
      accept: 'application/json',
      agent: expect.stringMatching(/^Svc\//),
    });
    expect(fetched.headers['cache-control']).toBe('max-age=60');
  });

  it('refuses loopback without the development switch, and http for any other host', async () => {
    expect(await get('/doc', { loopback: false })).toMatchObject({
      ok: false,
      reason: 'not_public',
      host: '127.0.0.1',
    });
    const named = await get('/doc', { origin: origin.replace('127.0.0.1', 'localhost') });
    expect(named.ok).toBe(true);
    expect(await get('http://example.com/doc')).toMatchObject({ ok: false, reason: 'not_public' });
  });

  it('follows no redirect and takes only a 200', async () => {
    expect(await get('/moved')).toMatchObject({ ok: false, reason: 'redirect', status: 302 });
    expect(await get('/missing')).toMatchObject({ ok: false, reason: 'status', status: 404 });
    expect(server.count('/doc')).toBe(2);
  });

  it('cuts the body off at the size given', async () => {
    expect(await get('/big', { maxBytes: 1_000 })).toMatchObject({
      ok: false,
      reason: 'too_large',
      maxBytes: 1_000,
    });
    expect((await get('/big', { maxBytes: 1_600 })).ok).toBe(true);
  });

  it('gives up at the deadline on a server that never answers', async () => {
    const impatient = new PublicFetcher({
      lookup: hostLookup({ servers: null, timeoutMs: 1_000 }),
      timeoutMs: 100,
      caCertificates: [],
      allowedNetworks: new BlockList(),
    });
    const fetched = await impatient.fetch({
      url: new URL('/silent', origin),
      accept: '*/*',
      maxBytes: 10,
      loopback: true,
    });
    expect(fetched).toMatchObject({ ok: false, reason: 'timeout', seconds: 1 });
  });
});
