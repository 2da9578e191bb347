import type { OidcClaimMapping } from '@svc/contract';
import { parseEmailIdentity } from '../../directory/email-key.js';
import { OidcRelyingPartyError } from './rp-errors.js';

/** Who the provider says signed in, read through the connection's claim mapping. */
export interface OidcIdentity {
  /** The provider's stable id of the user (GitHub's numeric `id` as a string). */
  readonly subject: string;
  /** Null when the provider gave none (or nothing Svc takes as an address: not ASCII before the @). */
  readonly email: string | null;
  /** True only when the provider asserts it for this email (`true` or the string "true"). */
  readonly emailVerified: boolean;
  readonly displayName: string | null;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly preferredUsername: string | null;
  /**
   * The claims the identity was read from, merged: the ID token's over UserInfo's (OIDC), the profile
   * API's with the chosen email (GitHub). They hold no tokens.
   */
  readonly rawClaims: Readonly<Record<string, unknown>>;
}

/** Names given outside the claims (Apple's first-login form post). */
export interface GivenNames {
  readonly firstName: string | null;
  readonly lastName: string | null;
}

const MAX_TEXT = 200;
const MAX_SUBJECT = 255;
const MAX_EMAIL = 320;

/**
 * Reads the identity from `sources`, the most trusted first (the ID token, then UserInfo): each mapped
 * claim comes from the first source that has it, and the email's verification only from the source that
 * gave the email, so that an address is never paired with another document's `email_verified`.
 */
export function identityFromClaims(
  mapping: OidcClaimMapping,
  sources: readonly Readonly<Record<string, unknown>>[],
  given: GivenNames | null = null,
): OidcIdentity {
  const first = (claim: string | null): unknown => {
    if (claim === null) return undefined;
    for (const source of sources) {
      const value = source[claim];
      if (value !== undefined && value !== null) return value;
    }
    return undefined;
  };

  const subject = subjectOf(first(mapping.subject));
  if (subject === null) {
    throw new OidcRelyingPartyError(
      'invalid_provider_response',
      `The provider's answer names no subject (claim "${mapping.subject}").`,
    );
  }

  let email: string | null = null;
  let emailVerified = false;
  if (mapping.email !== null) {
    const claim = mapping.email;
    const source = sources.find((candidate) => emailOf(candidate[claim]) !== null);
    if (source !== undefined) {
      email = emailOf(source[claim]);
      emailVerified = mapping.emailVerified !== null && isAsserted(source[mapping.emailVerified]);
    }
  }

  const firstName = given?.firstName ?? textOf(first(mapping.firstName));
  const lastName = given?.lastName ?? textOf(first(mapping.lastName));
  const named = [firstName, lastName].filter((part) => part !== null).join(' ');
  const displayName = textOf(first(mapping.displayName)) ?? (named === '' ? null : named);

  const rawClaims: Record<string, unknown> = {};
  for (const source of [...sources].reverse()) Object.assign(rawClaims, source);
  return {
    subject,
    email,
    emailVerified,
    displayName,
    firstName,
    lastName,
    preferredUsername: textOf(first(mapping.preferredUsername)),
    rawClaims,
  };
}

/**
 * `email_verified` as providers send it: a JSON boolean, or the string "true" (Apple, some others).
 * Absent or anything else is false.
 */
export function isAsserted(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}

/**
 * Apple's first-login `user` form field, `{"name":{"firstName","lastName"},"email"}`: only the name is
 * taken. Its email travels through the browser unsigned, so the email comes from the ID token alone.
 * Anything malformed gives no names (the sign-in goes on without them).
 */
export function namesFromApplePayload(json: string | null | undefined): GivenNames | null {
  if (typeof json !== 'string' || json.length === 0 || json.length > 4096) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(json);
  } catch {
    return null;
  }
  const name = (payload as { name?: unknown } | null)?.name;
  if (typeof name !== 'object' || name === null) return null;
  const { firstName, lastName } = name as { firstName?: unknown; lastName?: unknown };
  const names = { firstName: textOf(firstName), lastName: textOf(lastName) };
  return names.firstName === null && names.lastName === null ? null : names;
}

function subjectOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value !== 'string') return null;
  const subject = value.trim();
  return subject === '' || subject.length > MAX_SUBJECT || /\p{Cc}/u.test(subject) ? null : subject;
}

/**
 * The asserted address, or null when it is none Svc takes as an identity: one that is not ASCII before the
 * @ (or whose domain IDNA cannot convert) is kept unlinked, as if the provider had sent no address
 * (docs/decisions/admin-email-identity-ascii-exact.md).
 */
function emailOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const email = value.trim();
  if (email.length > MAX_EMAIL || /[\s\p{Cc}]/u.test(email)) return null;
  return parseEmailIdentity(email).ok ? email : null;
}

/** Free text from a provider: trimmed, control characters removed, at most 200 characters. */
function textOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value
    .replace(/\p{Cc}/gu, ' ')
    .trim()
    .slice(0, MAX_TEXT)
    .trim();
  return text === '' ? null : text;
}
