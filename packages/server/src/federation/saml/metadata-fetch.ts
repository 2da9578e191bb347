import { lookup as systemLookup } from 'node:dns/promises';
import { request } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { SSO_METADATA_MAX_LENGTH } from '@svc/contract';
import { SvcValidationError } from '../../kernel/errors.js';
import { lookupResolver, type DnsSettings } from '../../organizations/domains/txt-lookup.js';
import { SVC_VERSION } from '../../version.js';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Every address of a host name (rejects when it has none or the look-up fails). */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface MetadataFetcherOptions {
  readonly lookup: HostLookup;
  /** The whole fetch (look-up, connection, TLS, answer, body) gives up after this long. */
  readonly timeoutMs: number;
  /** PEM certificates trusted beside Node's root store (an IdP behind an internal CA). */
  readonly caCertificates: readonly string[];
  /** Networks fetched from although they are not public (an on-premises IdP); empty: none. */
  readonly allowedNetworks: BlockList;
}

/** What a fetch brought back: the document, and the URL it came from (the audit trail keeps its host). */
export interface FetchedMetadata {
  readonly metadataXml: string;
  readonly url: URL;
}

/** The part of Node's answer the fetch reads (an IncomingMessage; layering keeps node:http out of here). */
interface Answer extends AsyncIterable<unknown> {
  readonly statusCode?: number | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  destroy(): void;
}

/** The whole fetch's deadline unless configured (docs/decisions/sso-portal-metadata-url.md). */
export const DEFAULT_METADATA_FETCH_TIMEOUT_MS = 5_000;

/**
 * Addresses that are not on the public internet: loopback, private (RFC 1918), shared (RFC 6598),
 * link-local (cloud metadata at 169.254.169.254), unique-local, multicast, unspecified, NAT64 and 6to4,
 * and the reserved and documentation ranges. Node's BlockList matches an IPv4-mapped IPv6 address
 * (`::ffff:10.0.0.1`) against the IPv4 rules.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  // Translated and tunnelled IPv4 (NAT64, 6to4): a gateway would carry them to any IPv4 address,
  // private ones included, so they are not judged as IPv6 at all.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is on the public internet (false for anything that is not an IP address). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The networks of `SvcOptions.ssoMetadataFetch.allowedPrivateNetworks`: addresses (`10.1.2.3`) and CIDR
 * ranges (`10.20.0.0/16`, `fd00::/8`); the first entry that is neither, when there is one.
 */
export function allowedNetworks(entries: readonly string[]): BlockList | { readonly invalid: string } {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
    if (
      family === 0 ||
      extra !== undefined ||
      (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) ||
      bits > (family === 4 ? 32 : 128)
    ) {
      return { invalid: entry };
    }
    list.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}

/**
 * The host look-up of the fetch: the system's (`getaddrinfo`, so /etc/hosts counts) or, when
 * `SVC_DNS_SERVERS` names resolvers, their A and AAAA records; either way every address, once.
 */
export function hostLookup(dns: DnsSettings) {
  const { servers } = dns;
  if (servers === null) {
    return async (hostname: string): Promise<readonly ResolvedAddress[]> =>
      (await systemLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
        address,
        family: family === 6 ? 6 : 4,
      }));
  }
  return async (hostname: string): Promise<readonly ResolvedAddress[]> => {
    const resolver = lookupResolver(dns);
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const found = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    // Neither family answered: the IPv4 look-up's error says why (ENOTFOUND, ENODATA, ETIMEOUT, …).
    if (found.length === 0)
      throw v4.status === 'rejected' ? v4.reason : new Error(`no address for ${hostname}`);
    return found;
  };
}

/** The look-up errors that mean the name has no address (rather than no answer). */
const NO_ADDRESS = new Set(['ENOTFOUND', 'ENODATA']);

const TLS_CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME/;

function refused(message: string): SvcValidationError {
  return new SvcValidationError(message, [{ path: 'metadataUrl', message }]);
}

/** Reads and checks the URL a customer typed: https, no credentials (400 otherwise). */
export function metadataUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refused('The metadata URL is not a URL: enter the full address, starting with https://.');
  }
  if (url.protocol !== 'https:') {
    throw refused('The metadata URL must start with https://: Svc fetches metadata over HTTPS only.');
  }
  if (url.username !== '' || url.password !== '') {
    throw refused('The metadata URL must not hold a user name or password.');
  }
  return url;
}

/**
 * Fetches an identity provider's SAML metadata from a URL a customer's admin typed, so it must not reach
 * what the admin could not (docs/decisions/sso-portal-metadata-url.md): `https:` only; the host is
 * resolved once and refused when any of its addresses is not public (unless in the allowed networks);
 * the connection goes to that vetted address only (the request's `lookup` answers it, so a second DNS
 * answer cannot swap it) while TLS still verifies the host name; no redirect followed; one deadline for
 * everything; the body cut off at the metadata size limit; only a 200 counts. Every refusal is a 400
 * naming at most the host that was typed.
 */
export class MetadataFetcher {
  readonly #options: MetadataFetcherOptions;
  readonly #ca: string[] | undefined;

  constructor(options: MetadataFetcherOptions) {
    this.#options = options;
    // Giving `ca` replaces Node's roots, so the extra certificates are added to them.
    this.#ca =
      options.caCertificates.length === 0 ? undefined : [...rootCertificates, ...options.caCertificates];
  }

  async fetch(value: string): Promise<FetchedMetadata> {
    const url = metadataUrl(value);
    const host = url.hostname;
    const signal = AbortSignal.timeout(this.#options.timeoutMs);
    const seconds = Math.ceil(this.#options.timeoutMs / 1000);
    const tooLong = () =>
      refused(
        `The metadata URL took too long to answer (more than ${seconds} second${seconds === 1 ? '' : 's'}). Try again, or upload the metadata file.`,
      );
    try {
      const address = await this.#vettedAddress(host, signal);
      const response = await this.#get(url, address, signal);
      return { metadataXml: await this.#body(response), url };
    } catch (error) {
      if (error instanceof SvcValidationError) throw error;
      if (signal.aborted) throw tooLong();
      const code = String((error as { code?: unknown }).code ?? '');
      if (TLS_CERTIFICATE_ERROR.test(code)) {
        throw refused(
          `The metadata URL's host ${host} could not be reached over HTTPS: its certificate was not accepted.`,
        );
      }
      throw refused(
        `The metadata URL's host ${host} could not be reached${NO_ADDRESS.has(code) ? ': it has no address in DNS' : ''}. Check the URL, or upload the metadata file.`,
      );
    }
  }

  async #vettedAddress(host: string, signal: AbortSignal): Promise<ResolvedAddress> {
    // The URL parser leaves an IPv6 literal in brackets.
    const literal = host.startsWith('[') ? host.slice(1, -1) : host;
    const family = isIP(literal);
    const addresses =
      family === 0
        ? await abortable(this.#options.lookup(host), signal)
        : [{ address: literal, family: family === 4 ? (4 as const) : (6 as const) }];
    const [first] = addresses;
    const allowed = (candidate: ResolvedAddress) =>
      isPublicAddress(candidate.address) ||
      this.#options.allowedNetworks.check(candidate.address, candidate.family === 4 ? 'ipv4' : 'ipv6');
    if (first === undefined || !addresses.every(allowed)) {
      throw refused(
        `The metadata URL's host ${host} is not a public address: Svc fetches metadata only from the internet. Download the metadata file and upload it instead.`,
      );
    }
    return first;
  }

  #get(url: URL, address: ResolvedAddress, signal: AbortSignal): Promise<Answer> {
    // Node asks for every address when it may try several (autoSelectFamily): the one vetted either way.
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all === true) callback(null, [address]);
      else callback(null, address.address, address.family);
    };
    return new Promise((resolve, reject) => {
      const outgoing = request(url, {
        method: 'GET',
        agent: false,
        lookup: pinned,
        signal,
        ...(this.#ca === undefined ? {} : { ca: this.#ca }),
        headers: {
          accept: 'application/samlmetadata+xml, application/xml, text/xml',
          'user-agent': `Svc/${SVC_VERSION}`,
        },
      });
      outgoing.on('response', resolve);
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  async #body(response: Answer): Promise<string> {
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400) {
      response.destroy();
      throw refused(
        `The metadata URL answered with a redirect (${status}), which Svc does not follow: enter the final URL of the metadata.`,
      );
    }
    if (status !== 200) {
      response.destroy();
      throw refused(`The metadata URL answered ${status} instead of the metadata. Check the URL.`);
    }
    const tooLarge = () => {
      response.destroy();
      return refused(
        `The metadata at that URL is larger than ${SSO_METADATA_MAX_LENGTH} bytes, more than Svc accepts.`,
      );
    };
    if (Number(response.headers['content-length'] ?? 0) > SSO_METADATA_MAX_LENGTH) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response) {
      const bytes = chunk as Buffer;
      size += bytes.length;
      if (size > SSO_METADATA_MAX_LENGTH) throw tooLarge();
      chunks.push(bytes);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

/** The look-up's answer, or the deadline's abort first (a look-up cannot be cancelled, only left). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
