import { z } from 'zod';

/**
 * The checks a first-party app keeps when it signs a user in through an identity provider at its own
 * redirect URI (the OIDC provider sign-in of oidc-sign-in.ts, the SAML entry points of sso-sign-in.ts):
 * its state and its PKCE pair, under docs/reference/limits.md "Sizes and lengths". Internal to the package: index.ts does not
 * re-export this module.
 */

/** Printable ASCII without spaces, `max` characters at most: what travels in a provider's URLs. */
export function printable(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces' });
}

/** docs/reference/limits.md "Sizes and lengths" Limits: "state parameter length 1 to 2048 characters". */
export const appStateSchema = printable(2048);

/** docs/reference/limits.md "Sizes and lengths" Limits: the S256 code_challenge of these starts is "exactly 43 base64url characters". */
export const appCodeChallengeSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, {
  message: 'must be the 43-character base64url S256 challenge',
});

/** docs/reference/limits.md "Sizes and lengths" Limits: "method S256 only". */
export const appCodeChallengeMethodSchema = z.literal('S256', { error: "must be 'S256'" });

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const appCodeVerifierSchema = z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/, {
  message: 'must be the PKCE verifier: 43 to 128 letters, digits, -, ., _ or ~',
});
