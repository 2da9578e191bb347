import { lookup as systemLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { LOOPBACK_HOST } from '../kernel/loopback.js';
import { lookupResolver, type DnsSettings } from '../organizations/domains/txt-lookup.js';
import { SVC_VERSION } from '../kernel/version.js';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Every address of a host name (rejects when it has none or the look-up fails). */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface PublicFetcherOptions {
  readonly lookup: HostLookup;
  /** The whole fetch (look-up, connection, TLS, answer, body) gives up after this long. */
  readonly timeoutMs: number;
  /** PEM certificates trusted beside Node's root store (a server behind an internal CA). */
  readonly caCertificates: readonly string[];
  /** Networks fetched from although they are not public (an on-premises server); empty: none. */
  readonly allowedNetworks: BlockList;
}

/** One GET of a URL that someone other than the operator named. */
export interface PublicFetchRequest {
  /** `https:`; `http:` only with `loopback`. The caller has checked it holds no credentials. */
  readonly url: URL;
  readonly accept: string;
  /** The body is cut off past this many bytes. */
  readonly maxBytes: number;
  /**
   * `http:` and loopback addresses are allowed for a loopback host name (`localhost`, 127.0.0.0/8,
   * `[::1]`), a server run beside Svc, never for any other host. Only a setting the operator sets for
   * it may turn this on, never a development default (docs/decisions/http-server-side-fetches-never-loopback.md).
   */
  readonly loopback?: boolean;
}

/** Why a fetch brought nothing back; `host` is the URL's, never an address it resolved to. */
export type PublicFetchFailure =
  | { readonly reason: 'not_public' }
  | { readonly reason: 'no_address' }
  | { readonly reason: 'unreachable' }
  | { readonly reason: 'certificate' }
  | { readonly reason: 'timeout'; readonly seconds: number }
  | { readonly reason: 'redirect'; readonly status: number }
  | { readonly reason: 'status'; readonly status: number }
  | { readonly reason: 'too_large'; readonly maxBytes: number };

export type PublicFetchResult =
  | {
      readonly ok: true;
      readonly body: string;
      readonly headers: Readonly<Record<string, string | string[] | undefined>>;
    }
  | ({ readonly ok: false; readonly host: string } & PublicFetchFailure);

/** The part of Node's answer the fetch reads (an IncomingMessage). */
interface Answer extends AsyncIterable<unknown> {
  readonly statusCode?: number | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  destroy(): void;
}

/**
 * Addresses that are not on the public internet (RFC 6890 and the IANA special-purpose registries):
 * loopback, private (RFC 1918), shared (RFC 6598), link-local (cloud metadata at 169.254.169.254),
 * unique-local, multicast, unspecified, the reserved, benchmarking and documentation ranges. IPv6
 * forms that carry an IPv4 address (IPv4-compatible `::/96`, IPv4-mapped `::ffff:0:0/96`,
 * IPv4-translated `::ffff:0:0:0/96`, NAT64, 6to4, Teredo in `2001::/23`) are refused whole: a host has
 * no business publishing one, and a stack or gateway would carry it to any IPv4 address, private ones
 * included. One list per family: Node's BlockList matches an IPv4 address against an IPv6 rule for
 * `::ffff:0:0/96` (every IPv4 address would be refused) and IPv4-mapped addresses against IPv4 rules.
 */
const NOT_PUBLIC_V4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC_V4.addSubnet(network, prefix, 'ipv4');
}
const NOT_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  // Unspecified, loopback and IPv4-compatible alike.
  ['::', 96],
  ['::ffff:0:0', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // IETF protocol assignments: Teredo (2001::/32), benchmarking, ORCHID; none serves the web.
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC_V6.addSubnet(network, prefix, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether an IP address is on the public internet (false for anything that is not an IP address). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4 ? !NOT_PUBLIC_V4.check(address, 'ipv4') : !NOT_PUBLIC_V6.check(address, 'ipv6');
}

/**
 * Networks named by addresses (`10.1.2.3`) and CIDR ranges (`10.20.0.0/16`, `fd00::/8`); the first entry
 * that is neither, when there is one.
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
export function hostLookup(dns: DnsSettings): HostLookup {
  const { servers } = dns;
  if (servers === null) {
    return async (hostname) =>
      (await systemLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
        address,
        family: family === 6 ? 6 : 4,
      }));
  }
  return async (hostname) => {
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

/** Where a fetch may connect, beside public addresses. */
export interface DestinationRules {
  readonly lookup: HostLookup;
  /** Networks reached although they are not public (an on-premises server). */
  readonly allowedNetworks: BlockList;
  /**
   * Loopback addresses for a loopback host name (`localhost`, 127.0.0.0/8, `[::1]`), never for another
   * name: only a setting the operator sets for it turns this on
   * (docs/decisions/http-server-side-fetches-never-loopback.md).
   */
  readonly loopback: boolean;
}

/**
 * Where `host` (a URL's `hostname`) may be reached: the address to connect to, when every address it
 * resolves to is allowed by `rules`; otherwise `loopback` when one of them is on this machine, or
 * `not_public`. A failed look-up rejects; so does the signal, which the look-up cannot outlast.
 */
export async function vettedAddress(
  host: string,
  rules: DestinationRules,
  signal: AbortSignal,
): Promise<ResolvedAddress | { readonly refused: 'loopback' | 'not_public' }> {
  // The URL parser leaves an IPv6 literal in brackets.
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  const family = isIP(literal);
  const addresses =
    family === 0
      ? await abortable(rules.lookup(host), signal)
      : [{ address: literal, family: family === 4 ? (4 as const) : (6 as const) }];
  const loopback = rules.loopback && LOOPBACK_HOST.test(host);
  const typeOf = (of: 4 | 6) => (of === 4 ? 'ipv4' : 'ipv6');
  const refused = addresses.filter(
    ({ address, family: of }) =>
      !isPublicAddress(address) &&
      !rules.allowedNetworks.check(address, typeOf(of)) &&
      !(loopback && LOOPBACK.check(address, typeOf(of))),
  );
  const [first] = addresses;
  if (first !== undefined && refused.length === 0) return first;
  const onThisMachine = refused.some(({ address, family: of }) => LOOPBACK.check(address, typeOf(of)));
  return { refused: onThisMachine ? 'loopback' : 'not_public' };
}

/**
 * The `lookup` of a request that must connect to the vetted address only, so that a second DNS answer
 * cannot swap it; TLS still verifies the host name. Node asks for every address when it may try several
 * (autoSelectFamily): the one vetted either way.
 */
export function pinnedLookup(address: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) callback(null, [address]);
    else callback(null, address.address, address.family);
  };
}

/** The `ca` of a request that trusts `extra` beside Node's roots (undefined: the roots alone). */
export function trustedCertificates(extra: readonly string[]): string[] | undefined {
  // Giving `ca` replaces Node's roots, so the extra certificates are added to them.
  return extra.length === 0 ? undefined : [...rootCertificates, ...extra];
}

/** The look-up errors that mean the name has no address (rather than no answer). */
const NO_ADDRESS = new Set(['ENOTFOUND', 'ENODATA']);

const TLS_CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME/;

/** A failure found on the way, carried to `fetch`'s answer. */
class Failed extends Error {
  constructor(readonly failure: PublicFetchFailure) {
    super(failure.reason);
  }
}

/**
 * Fetches a URL that someone other than the operator named (an IdP's metadata URL a customer typed, a
 * client's metadata document), so it must not reach what they could not: the host is resolved once and
 * refused when any of its addresses is not public (unless in the allowed networks); the connection goes
 * to that vetted address only (the request's `lookup` answers it, so a second DNS answer cannot swap it)
 * while TLS still verifies the host name; no redirect followed; one deadline for everything; the body
 * cut off at the request's size; only a 200 counts. Every failure is a value naming why.
 */
export class PublicFetcher {
  readonly #options: PublicFetcherOptions;
  readonly #ca: string[] | undefined;

  constructor(options: PublicFetcherOptions) {
    this.#options = options;
    this.#ca = trustedCertificates(options.caCertificates);
  }

  async fetch(request: PublicFetchRequest): Promise<PublicFetchResult> {
    const { url } = request;
    const host = url.hostname;
    const loopback = request.loopback === true && LOOPBACK_HOST.test(host);
    if (url.protocol !== 'https:' && !(loopback && url.protocol === 'http:')) {
      return { ok: false, host, reason: 'not_public' };
    }
    const signal = AbortSignal.timeout(this.#options.timeoutMs);
    try {
      const address = await vettedAddress(host, { ...this.#options, loopback }, signal);
      if ('refused' in address) throw new Failed({ reason: 'not_public' });
      const answer = await this.#get(request, address, signal);
      const body = await this.#body(answer, request.maxBytes);
      return { ok: true, body, headers: answer.headers };
    } catch (error) {
      if (error instanceof Failed) return { ok: false, host, ...error.failure };
      if (signal.aborted) {
        return { ok: false, host, reason: 'timeout', seconds: Math.ceil(this.#options.timeoutMs / 1000) };
      }
      const code = String((error as { code?: unknown }).code ?? '');
      if (TLS_CERTIFICATE_ERROR.test(code)) return { ok: false, host, reason: 'certificate' };
      return { ok: false, host, reason: NO_ADDRESS.has(code) ? 'no_address' : 'unreachable' };
    }
  }

  #get(request: PublicFetchRequest, address: ResolvedAddress, signal: AbortSignal): Promise<Answer> {
    const send = request.url.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      const outgoing = send(request.url, {
        method: 'GET',
        agent: false,
        lookup: pinnedLookup(address),
        signal,
        ...(this.#ca === undefined ? {} : { ca: this.#ca }),
        headers: { accept: request.accept, 'user-agent': `Svc/${SVC_VERSION}` },
      });
      outgoing.on('response', resolve);
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  async #body(answer: Answer, maxBytes: number): Promise<string> {
    const status = answer.statusCode ?? 0;
    if (status !== 200) {
      answer.destroy();
      throw new Failed(
        status >= 300 && status < 400 ? { reason: 'redirect', status } : { reason: 'status', status },
      );
    }
    const tooLarge = () => {
      answer.destroy();
      return new Failed({ reason: 'too_large', maxBytes });
    };
    if (Number(answer.headers['content-length'] ?? 0) > maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer) {
      const bytes = chunk as Buffer;
      size += bytes.length;
      if (size > maxBytes) throw tooLarge();
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
