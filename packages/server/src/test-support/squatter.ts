import { svcLoginResultSchema, type SvcLoginResult } from '@svc/contract';
import { expect } from 'vitest';
import { authorizeQuery, CLIENT_REDIRECT_URI } from './authorize-params.js';
import type { DirectHarness } from './direct-test-app.js';
import { InjectBrowser } from './inject-browser.js';
import { selfEnroll } from './mfa.js';
import type { HeldTokens } from './session-probe.js';

/** The password of every squatted account. */
export const SQUATTER_PASSWORD = 'the squatter knows this one';

/** What a squatter holds of an account they signed up with someone else's address. */
export interface SquattedAccount {
  readonly id: string;
  /** The tokens of the signup's session. */
  readonly tokens: HeldTokens;
  /** A browser signed in to the account (an issuer session). */
  readonly browser: InjectBrowser;
}

/** The tokens of a completed sign-in; throws when it asks for more (the test is then wrong). */
export function heldTokens(result: SvcLoginResult): HeldTokens {
  if (result.tokens === null) throw new Error('the sign-in did not complete');
  return result.tokens;
}

/** The code a silent /authorize of `browser` gets for `clientId`, or null when it must sign in again. */
export async function silentCode(browser: InjectBrowser, clientId: string): Promise<string | null> {
  const answer = await browser.authorize(authorizeQuery(clientId));
  return answer.statusCode === 302 ? InjectBrowser.location(answer).searchParams.get('code') : null;
}

/**
 * A pre-hijacked account (Sudhodanan and Paverd, USENIX Security 2022): an anonymous signup with `email`
 * at first-party `clientId` (through the direct or the hosted test app) (the address stays unverified), a browser signed in with its password, and a
 * TOTP authenticator with recovery codes set up afterwards.
 */
export async function squatAccount(
  h: Pick<DirectHarness, 't' | 'authBase' | 'inject'>,
  clientId: string,
  email: string,
): Promise<SquattedAccount> {
  const signup = await h.inject({
    method: 'POST',
    url: `${h.authBase}/signup`,
    headers: { 'content-type': 'application/json' },
    payload: { displayName: 'Squatter', email, password: SQUATTER_PASSWORD, clientId },
  });
  expect(signup.statusCode, signup.body).toBe(200);
  const tokens = heldTokens(svcLoginResultSchema.parse(signup.json()));
  const browser = new InjectBrowser({ authBase: h.authBase, inject: (options) => h.inject(options) });
  const signedIn = await browser.signIn(
    await browser.authorize(authorizeQuery(clientId)),
    email,
    SQUATTER_PASSWORD,
  );
  expect(InjectBrowser.location(signedIn).href.startsWith(CLIENT_REDIRECT_URI)).toBe(true);
  expect(await silentCode(browser, clientId)).toEqual(expect.any(String));
  const user = await h.t.svc.database.db
    .selectFrom('users')
    .select(['id', 'emailVerified'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  expect(user.emailVerified).toBe(0);
  await selfEnroll(h.t.svc.auth, h.t.clock, user.id);
  return { id: user.id, tokens, browser };
}
