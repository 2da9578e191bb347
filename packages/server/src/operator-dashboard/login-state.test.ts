import { describe, expect, it } from 'vitest';
import { LOGIN_STATE_LIFETIME_MS, LoginStates } from './login-state.js';

const states = new LoginStates(Buffer.alloc(32, 7));
const login = { state: 's'.repeat(43), verifier: 'v'.repeat(43), returnTo: null };

describe('LoginStates', () => {
  it('opens what it sealed until it expires', () => {
    const sealed = states.seal(login, 1_000);
    expect(states.open(sealed, 1_000)).toEqual(login);
    expect(states.open(sealed, 1_000 + LOGIN_STATE_LIFETIME_MS)).toBeUndefined();
  });

  it('carries the console page to open afterwards, which the browser cannot change', () => {
    const sealed = states.seal({ ...login, returnTo: '/svc/users/usr_1?tab=sessions' }, 0);
    expect(states.open(sealed, 0)?.returnTo).toBe('/svc/users/usr_1?tab=sessions');
    const [state, verifier, , expires, mac] = sealed.split('.');
    const elsewhere = Buffer.from('https://attacker.example/').toString('base64url');
    expect(states.open([state, verifier, elsewhere, expires, mac].join('.'), 0)).toBeUndefined();
  });

  it('refuses a changed part, another key, extra parts and garbage', () => {
    const sealed = states.seal(login, 0);
    const [state, verifier, returnTo, expires, mac] = sealed.split('.');
    expect(states.open([state, 'w'.repeat(43), returnTo, expires, mac].join('.'), 0)).toBeUndefined();
    expect(states.open([state, verifier, returnTo, '99999999999', mac].join('.'), 0)).toBeUndefined();
    expect(new LoginStates(Buffer.alloc(32, 8)).open(sealed, 0)).toBeUndefined();
    expect(states.open(`${sealed}.x`, 0)).toBeUndefined();
    expect(states.open('', 0)).toBeUndefined();
    expect(states.open(undefined, 0)).toBeUndefined();
  });
});
