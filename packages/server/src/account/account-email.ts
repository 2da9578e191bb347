import { opaqueTokenSchema } from '@svc/contract';
import { requireEmailKey } from '../directory/email-key.js';
import { SvcValidationError } from '../kernel/errors.js';

/** The call context routes pass in (structurally the SvcAuthService call context). */
export interface AccountCallContext {
  readonly route?: string;
  readonly ipAddress?: string;
  readonly userAgent?: string;
}

/** The longest email address accepted (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;

/** Whitespace or a control character (C0 or DEL), which no deliverable address contains. */
function hasSpaceOrControl(value: string): boolean {
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (code <= 0x20 || code === 0x7f || /\s/.test(ch)) return true;
  }
  return false;
}

/**
 * Checks an email address before any lookup and answers it trimmed with its lookup key: one `@` with text
 * on both sides, no whitespace or control characters, at most 254 characters, ASCII before the @ and a
 * valid domain (directory/email-key.ts). A refused address is a 400 whatever accounts exist, so the check
 * reveals nothing.
 */
export function requireEmail(raw: unknown): { readonly address: string; readonly key: string } {
  const email = typeof raw === 'string' ? raw.trim() : '';
  const at = email.lastIndexOf('@');
  if (email.length > MAX_EMAIL_LENGTH || at < 1 || at === email.length - 1 || hasSpaceOrControl(email)) {
    throw new SvcValidationError('The email address is not valid.', [
      { path: 'email', message: 'Expected an email address.' },
    ]);
  }
  return { address: email, key: requireEmailKey(email) };
}

/**
 * Masks an address for display: the first character of the local part, then `***`, then the domain
 * (`a***@example.com`). Computed from the input alone, so known and unknown addresses mask alike.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** A one-time token from the request body, of the shape Svc issues (printable, at most 512). */
export function requireToken(raw: unknown): string {
  const token = opaqueTokenSchema.safeParse(raw);
  if (!token.success) {
    throw new SvcValidationError('The token is missing or malformed.', [
      { path: 'token', message: 'Expected a token.' },
    ]);
  }
  return token.data;
}
