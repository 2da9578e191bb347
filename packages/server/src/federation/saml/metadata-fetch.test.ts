import { BlockList } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SvcValidationError } from '../../kernel/errors.js';
import {
  allowedNetworks,
  hostLookup,
  isPublicAddress,
  MetadataFetcher,
  metadataUrl,
  type HostLookup,
} from './metadata-fetch.js';

/** A fetcher whose look-up answers `addresses` and counts its calls; nothing is allowed beyond public. */
function fetcherAnswering(addresses: readonly string[], allowed = new BlockList()) {
  const calls: string[] = [];
  const lookup: HostLookup = (hostname) => {
    calls.push(hostname);
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return {
    calls,
    fetcher: new MetadataFetcher({ lookup, timeoutMs: 1_000, caCertificates: [], allowedNetworks: allowed }),
  };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SvcValidationError);
  const refused = error as SvcValidationError;
  expect(refused.status).toBe(400);
  expect(refused.details).toEqual([expect.objectContaining({ path: 'metadataUrl' })]);
  return refused.message;
}

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
    ['not an address', 'localhost'],
  ])('refuses %s (%s)', (_name, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['a public IPv4 address', '8.8.8.8'],
    ['just past 172.16/12', '172.32.0.1'],
    ['just past 100.64/10', '100.128.0.1'],
    ['a public IPv6 address', '2606:4700:4700::1111'],
    ['an IPv4-mapped public address', '::ffff:8.8.8.8'],
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

describe('metadataUrl', () => {
  it('takes an https URL with the default or an explicit port', () => {
    expect(metadataUrl('https://idp.example.com/metadata').port).toBe('');
    expect(metadataUrl('https://idp.example.com:8443/metadata').port).toBe('8443');
  });

  it.each([
    ['http:', 'http://idp.example.com/metadata', 'must start with https://'],
    ['file:', 'file:///etc/passwd', 'must start with https://'],
    ['credentials', 'https://user:secret@idp.example.com/metadata', 'user name or password'],
    ['not a URL', 'idp.example.com/metadata', 'is not a URL'],
  ])('refuses %s', async (_name, value, message) => {
    expect(await refusal(Promise.resolve().then(() => metadataUrl(value)))).toContain(message);
  });
});

describe('MetadataFetcher refusals before any connection', () => {
  it('refuses a host when any of its addresses is not public, naming only the host typed', async () => {
    const { fetcher, calls } = fetcherAnswering(['8.8.8.8', '10.0.0.7']);
    const message = await refusal(fetcher.fetch('https://idp.example.com/metadata?x=1'));
    expect(message).toContain('idp.example.com is not a public address');
    expect(message).not.toContain('10.0.0.7');
    expect(calls).toEqual(['idp.example.com']);
  });

  it('refuses IP literals of every kind without a look-up', async () => {
    const { fetcher, calls } = fetcherAnswering([]);
    for (const url of [
      'https://127.0.0.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]:8443/',
      'https://[::ffff:127.0.0.1]/',
      'https://[fd00::1]/',
      'https://0x7f.1/',
    ]) {
      expect(await refusal(fetcher.fetch(url)), url).toContain('is not a public address');
    }
    expect(calls).toEqual([]);
  });

  it('refuses a host with no address', async () => {
    const { fetcher } = fetcherAnswering([]);
    expect(await refusal(fetcher.fetch('https://idp.example.com/'))).toContain('is not a public address');
  });

  it('lets an allowed network through the address check (and then fails to connect, on a closed port)', async () => {
    const allowed = allowedNetworks(['127.0.0.1/32']);
    if ('invalid' in allowed) throw new Error('refused');
    const { fetcher } = fetcherAnswering(['127.0.0.1'], allowed);
    // Port 1 on loopback is closed: the refusal is the connection's, not the address check's.
    expect(await refusal(fetcher.fetch('https://idp.example.com:1/'))).toContain('could not be reached');
  });

  it('resolves through the system when no DNS servers are configured (localhost is loopback)', async () => {
    const lookup = hostLookup({ servers: null, timeoutMs: 1_000 });
    const addresses = await lookup('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.every((a) => !isPublicAddress(a.address))).toBe(true);
    const fetcher = new MetadataFetcher({
      lookup,
      timeoutMs: 1_000,
      caCertificates: [],
      allowedNetworks: new BlockList(),
    });
    expect(await refusal(fetcher.fetch('https://localhost/metadata'))).toContain(
      'localhost is not a public address',
    );
  });
});
