import { describe, expect, it } from 'vitest';
import { LOGIN_STATE_LIFETIME_MS, LoginStates } from './login-state.js';

const states = new LoginStates(Buffer.alloc(32, 7));
const login = { state: 's'.repeat(43), verifier: 'v'.repeat(43) };

describe('LoginStates', () => {
  it('opens what it sealed until it expires', () => {
    const sealed = states.seal(login, 1_000);
    expect(states.open(sealed, 1_000)).toEqual(login);
    expect(states.open(sealed, 1_000 + LOGIN_STATE_LIFETIME_MS)).toBeUndefined();
  });

  it('refuses a changed part, another key, extra parts and garbage', () => {
    const sealed = states.seal(login, 0);
    const [state, verifier, expires, mac] = sealed.split('.');
    expect(states.open([state, 'w'.repeat(43), expires, mac].join('.'), 0)).toBeUndefined();
    expect(states.open([state, verifier, '99999999999', mac].join('.'), 0)).toBeUndefined();
    expect(new LoginStates(Buffer.alloc(32, 8)).open(sealed, 0)).toBeUndefined();
    expect(states.open(`${sealed}.x`, 0)).toBeUndefined();
    expect(states.open('', 0)).toBeUndefined();
    expect(states.open(undefined, 0)).toBeUndefined();
  });
});
