import { domainToASCII } from 'node:url';
import { SvcValidationError } from '../kernel/errors.js';

/**
 * Email identity (docs/decisions/admin-email-identity-ascii-exact.md). An address is trimmed and split at
 * its last `@`. The part before it must be printable ASCII, else the address is refused: RFC 6531 local
 * parts are not folded, because Unicode case mapping makes different addresses one (`ı` upper-cases to
 * `I`, `ß` to `SS`, `ﬃ` to `FFI`; Unicode TR #36). A non-ASCII domain is compared as its IDNA A-label
 * (UTS #46, `domainToASCII`), the name DNS resolves. Only ASCII letters fold, so a pure-ASCII address keys
 * exactly as trim-then-upper-case always did (docs/reference/organizations.md "Email identity") and no stored
 * ASCII key changes.
 *
 * Every lookup by email (sign-in, invitations, SSO linking, SCIM) goes through this module.
 */

/** Why an address is not an identity Svc looks up. */
export type EmailRefusal = 'not_an_address' | 'local_part_not_ascii' | 'domain_not_valid';

/** A parsed address with its lookup key, or the reason it is refused (an expected outcome, not a throw). */
export type EmailIdentity =
  | { readonly ok: true; readonly address: string; readonly key: string }
  | { readonly ok: false; readonly refusal: EmailRefusal };

/** What each refusal tells the person who typed the address. */
export const EMAIL_REFUSAL_MESSAGES: Readonly<Record<EmailRefusal, string>> = Object.freeze({
  not_an_address: 'Enter an email address such as ann@example.com.',
  local_part_not_ascii:
    'Use an email address whose part before the @ is ASCII (letters a-z, digits and the usual symbols).',
  domain_not_valid:
    'The domain after the @ is not a valid domain name. Check it, or write it in its ASCII (xn--) form.',
});

// Printable ASCII, space to tilde: what a local part may hold (a quoted one may hold a space).
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
// Printable ASCII without space: a domain that keys as it always has.
const ASCII_DOMAIN = /^[\x21-\x7e]+$/;
// Besides non-ASCII letters, a domain to convert holds letters, digits, hyphens and dots only: the URL
// host parser behind domainToASCII would read percent escapes and URL syntax in anything else.
const NOT_HOST_ASCII = /[^A-Za-z0-9.\-\u{80}-\u{10ffff}]/u;

/** Upper-cases ASCII letters only; every other character is left as it is. */
export function asciiUpperCase(value: string): string {
  return value.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/** Parses `raw` as an email identity: its trimmed address and lookup key, or why it is refused. */
export function parseEmailIdentity(raw: string): EmailIdentity {
  const address = raw.trim();
  const at = address.lastIndexOf('@');
  if (at < 1 || at === address.length - 1) return { ok: false, refusal: 'not_an_address' };
  const local = address.slice(0, at);
  if (!PRINTABLE_ASCII.test(local)) return { ok: false, refusal: 'local_part_not_ascii' };
  const domain = domainKey(address.slice(at + 1));
  if (domain === undefined) return { ok: false, refusal: 'domain_not_valid' };
  return { ok: true, address, key: `${asciiUpperCase(local)}@${domain}` };
}

/** The domain's part of the key: an ASCII domain upper-cased, another one's A-label upper-cased. */
function domainKey(domain: string): string | undefined {
  if (ASCII_DOMAIN.test(domain)) return asciiUpperCase(domain);
  if (NOT_HOST_ASCII.test(domain)) return undefined;
  const aLabel = domainToASCII(domain);
  return aLabel === '' ? undefined : asciiUpperCase(aLabel);
}

/** The lookup key of `raw`, or undefined when it is refused (it then names no account). */
export function emailLookupKey(raw: string): string | undefined {
  const identity = parseEmailIdentity(raw);
  return identity.ok ? identity.key : undefined;
}

/**
 * The lookup key of an address a person or an operator gave, or a 400 SvcValidationError that says
 * what to do. A refusal depends on the address's shape alone, so it reveals nothing about accounts.
 */
export function requireEmailKey(raw: string, field = 'email'): string {
  const identity = parseEmailIdentity(raw);
  if (identity.ok) return identity.key;
  const message = EMAIL_REFUSAL_MESSAGES[identity.refusal];
  throw new SvcValidationError(message, [{ path: field, message }]);
}

/**
 * What a value that may be refused is counted or indexed under (a failure counter, SCIM's `emails.value`
 * filter): its key, else the trimmed value with ASCII letters upper-cased. A refused value holds a
 * non-ASCII character, a control character or no address's shape, so it never equals a key.
 */
export function emailMatchValue(raw: string): string {
  return emailLookupKey(raw) ?? asciiUpperCase(raw.trim());
}
