/**
 * When an authorization request may reuse the browser's issuer session instead of asking the user to
 * sign in (docs/reference/tokens-and-sessions.md "The authorization request", prompt and max_age). Pure.
 */

/** What a reuse decision needs to know about the request. */
export interface ReuseRequest {
  readonly prompt: ReadonlySet<string> | readonly string[];
  /** Seconds, or null when the client set no max_age. */
  readonly maxAge: number | null;
}

/**
 * True when an authentication at `authTime` is recent enough for `maxAge` at `now`. docs/reference/sign-in.md "The sign-in request": older
 * original authentication causes a re-challenge; 0 always forces fresh sign-in, so max_age=0 is never
 * satisfied by an earlier authentication. No max_age is always satisfied.
 */
export function maxAgeSatisfied(maxAge: number | null, authTime: number, now: number): boolean {
  if (maxAge === null) return true;
  if (maxAge === 0) return false;
  return authTime >= now - maxAge * 1000;
}

/**
 * The issuer session may be reused silently unless the client asked for a sign-in (docs/reference/sign-in.md "Issuer session reuse":
 * `prompt=login` and `prompt=select_account` block reuse) or the session's
 * authentication is older than max_age.
 */
export function canReuseSession(request: ReuseRequest, sessionAuthTime: number, now: number): boolean {
  const prompt = new Set(request.prompt);
  if (prompt.has('login') || prompt.has('select_account')) return false;
  return maxAgeSatisfied(request.maxAge, sessionAuthTime, now);
}

/**
 * At code issuance a positive max_age is checked again (docs/reference/sign-in.md "The sign-in request", for the headless flow and here alike: "a
 * positive maxAge is still enforced at code issuance when organization selection or MFA outlasts it").
 * max_age=0 was satisfied by the fresh sign-in of this very request, so it does not apply here.
 */
export function freshEnoughToIssue(maxAge: number | null, authTime: number, now: number): boolean {
  if (maxAge === null || maxAge === 0) return true;
  return authTime >= now - maxAge * 1000;
}
