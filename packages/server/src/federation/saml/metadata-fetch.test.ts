import { BlockList } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SvcValidationError } from '../../kernel/errors.js';
import {
  allowedNetworks,
  hostLookup,
  isPublicAddress,
  PublicFetcher,
  type HostLookup,
} from '../../outbound/public-fetch.js';
import { MetadataFetcher, metadataUrl } from './metadata-fetch.js';

/** A fetcher whose look-up answers `addresses` and counts its calls; nothing is allowed beyond public. */
function fetcherAnswering(addresses: readonly string[], allowed = new BlockList()) {
  const calls: string[] = [];
  const lookup: HostLookup = (hostname) => {
    calls.push(hostname);
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return {
    calls,
    fetcher: new MetadataFetcher(
      new PublicFetcher({ lookup, timeoutMs: 1_000, caCertificates: [], allowedNetworks: allowed }),
    ),
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
    const fetcher = new MetadataFetcher(
      new PublicFetcher({ lookup, timeoutMs: 1_000, caCertificates: [], allowedNetworks: new BlockList() }),
    );
    expect(await refusal(fetcher.fetch('https://localhost/metadata'))).toContain(
      'localhost is not a public address',
    );
  });
});
