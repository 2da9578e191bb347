import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { SvcValidationError } from '../../kernel/errors.js';

/** RFC 1035: 253 characters written without the root's dot, 63 per label. */
const MAX_DOMAIN_LENGTH = 253;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** A top-level label: letters, or an IDNA A-label (`xn--…`); never digits, so never an IPv4 address. */
const TOP_LEVEL_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** Why a text is not a claimable domain, in words for the 400. */
type Refusal = 'not_a_domain' | 'address' | 'top_level';

const REFUSALS: Record<Refusal, string> = {
  not_a_domain: 'must be a domain name such as example.com',
  address: 'must be a domain name, not an IP address',
  top_level: 'must have a name below its top-level domain, such as example.com',
};

/**
 * The domain a claim is about, in the one form it is stored, compared and looked up in: trimmed, one
 * trailing root dot dropped, lower case and IDNA-mapped to its ASCII form (`Bücher.Example` →
 * `xn--bcher-kva.example`) by the WHATWG host parser (node:url `domainToASCII`). A claim covers exactly
 * this name: `sub.example.com` is a claim of its own (docs/reference/organizations.md "Names").
 *
 * Refused: anything that is not a host name of letters, digits and hyphens (URLs, e-mail addresses,
 * underscores, empty labels), IP addresses in any notation the URL parser accepts (`127.1`, `0x7f.1`,
 * `[::1]`), and a single label (`com`, `localhost`). There is no public-suffix list: a claim on `co.uk`
 * could only be proven by whoever controls `co.uk`'s DNS, so the DNS proof itself refuses it.
 */
export function parseClaimableDomain(input: string): string {
  const result = claimable(input);
  if (typeof result === 'string') return result;
  throw new SvcValidationError(`Invalid domain: ${REFUSALS[result.refused]}.`, [
    { path: 'domain', message: REFUSALS[result.refused] },
  ]);
}

/**
 * The stored form of `input`, or undefined when it could not be claimed: for look-ups (the domain of an
 * e-mail address), where an odd name simply has no claim.
 */
export function claimableDomainOrUndefined(input: string): string | undefined {
  const result = claimable(input);
  return typeof result === 'string' ? result : undefined;
}

function claimable(input: string): string | { refused: Refusal } {
  const trimmed = input.trim().replace(/\.$/, '');
  // The URL parser reads `[…]` and hosts ending in a number as addresses; say so rather than "not a domain".
  if (isIP(trimmed) !== 0 || /^\[.*\]$/.test(trimmed) || /(?:^|\.)(?:\d+|0x[0-9a-f]*)$/i.test(trimmed)) {
    return { refused: 'address' };
  }
  // Characters the host parser would accept but a DNS name cannot hold, or that make it something else.
  if (trimmed === '' || /[\s/\\@:?#%_*]/u.test(trimmed)) return { refused: 'not_a_domain' };
  const ascii = domainToASCII(trimmed);
  if (ascii === '') return { refused: 'not_a_domain' };
  if (isIP(ascii) !== 0) return { refused: 'address' };
  const labels = ascii.split('.');
  if (ascii.length > MAX_DOMAIN_LENGTH || !labels.every((label) => LABEL.test(label))) {
    return { refused: 'not_a_domain' };
  }
  if (!TOP_LEVEL_LABEL.test(labels.at(-1) ?? '')) return { refused: 'not_a_domain' };
  if (labels.length < 2) return { refused: 'top_level' };
  return ascii;
}
