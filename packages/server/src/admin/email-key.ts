/**
 * SPEC.md "Email lookup key normalization: trim, then upper-case with invariant culture". JavaScript's
 * `toUpperCase()` is locale-independent (unlike `toLocaleUpperCase()`), which is what "invariant"
 * asks for. Every lookup by email (sign-in, invitations, SSO linking) goes through this one function.
 */
export function emailLookupKey(email: string): string {
  return email.trim().toUpperCase();
}
