import { Resolver } from 'node:dns/promises';

/**
 * What a TXT look-up answered: the records at the name (each record's character-strings joined, RFC 7208
 * §3.3), none (the name does not exist, or holds no TXT record), or no usable answer (`code` is c-ares'
 * error code, such as `ETIMEOUT`, `ESERVFAIL`, `ECONNREFUSED`).
 */
export type TxtAnswer =
  | { readonly kind: 'records'; readonly records: readonly string[] }
  | { readonly kind: 'none' }
  | { readonly kind: 'error'; readonly code: string };

/** Looks up the TXT records of a name; never throws. */
export type TxtLookup = (name: string) => Promise<TxtAnswer>;

/** Where and how long to ask (config.dns). */
export interface DnsSettings {
  /** `host:port` entries for `Resolver.setServers`; null: the system's resolvers (/etc/resolv.conf). */
  readonly servers: readonly string[] | null;
  /** The whole look-up's deadline, every try and server included. */
  readonly timeoutMs: number;
}

/** The answers that say "no such record" rather than "no answer". */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND']);

/**
 * A resolver for one look-up under `settings`: its servers, and two tries within the deadline, so that
 * one lost UDP datagram does not fail a look-up. One per look-up, so that a deadline can cancel exactly
 * its own queries.
 */
export function lookupResolver(settings: DnsSettings): Resolver {
  const resolver = new Resolver({ timeout: Math.max(1, Math.floor(settings.timeoutMs / 2)), tries: 2 });
  if (settings.servers !== null) resolver.setServers([...settings.servers]);
  return resolver;
}

/**
 * TXT look-ups through c-ares (node:dns `Resolver`), the system's resolvers or `SVC_DNS_SERVERS`. A
 * resolver per look-up, so that the deadline can cancel exactly its own queries: c-ares' per-try timeout
 * backs off and multiplies by servers and tries, so the deadline is kept here.
 */
export function dnsTxtLookup(settings: DnsSettings): TxtLookup {
  return async (name) => {
    const resolver = lookupResolver(settings);
    const deadline = setTimeout(() => resolver.cancel(), settings.timeoutMs);
    try {
      const chunked = await resolver.resolveTxt(name);
      const records = chunked.map((chunks) => chunks.join(''));
      return records.length === 0 ? { kind: 'none' } : { kind: 'records', records };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && NO_RECORD.has(code)) return { kind: 'none' };
      // A cancelled look-up is one that ran out of time.
      return { kind: 'error', code: code === 'ECANCELLED' ? 'ETIMEOUT' : String(code ?? 'EUNKNOWN') };
    } finally {
      clearTimeout(deadline);
    }
  };
}
