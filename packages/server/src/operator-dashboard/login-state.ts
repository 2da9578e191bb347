import { createHmac } from 'node:crypto';
import { safeEqual } from '../kernel/crypto.js';

/** How long a dashboard sign-in may take between /login and /callback. */
export const LOGIN_STATE_LIFETIME_MS = 10 * 60 * 1000;

/** What the browser carries through the sign-in: the OAuth state and the PKCE verifier. */
export interface LoginState {
  readonly state: string;
  readonly verifier: string;
}

const PART = /^[A-Za-z0-9_-]{43}$/;

/**
 * The dashboard sign-in's state and PKCE verifier in a cookie of their own, with an expiry and an HMAC
 * (a key derived for this purpose): nothing is stored, a node that did not start the sign-in can finish
 * it, and a browser cannot bring a state or verifier Svc did not make (the state is compared with the
 * callback's in constant time).
 */
export class LoginStates {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = key;
  }

  seal(login: LoginState, now: number): string {
    const body = `${login.state}.${login.verifier}.${now + LOGIN_STATE_LIFETIME_MS}`;
    return `${body}.${this.#mac(body)}`;
  }

  /** The state in a cookie value when its HMAC holds and it has not expired; otherwise undefined. */
  open(value: string | undefined, now: number): LoginState | undefined {
    const [state, verifier, expires, mac, ...rest] = (value ?? '').split('.');
    if (state === undefined || verifier === undefined || expires === undefined || mac === undefined) {
      return undefined;
    }
    if (rest.length > 0 || !PART.test(state) || !PART.test(verifier) || !/^\d{1,16}$/.test(expires)) {
      return undefined;
    }
    if (!safeEqual(mac, this.#mac(`${state}.${verifier}.${expires}`)) || Number(expires) <= now) {
      return undefined;
    }
    return { state, verifier };
  }

  #mac(body: string): string {
    return createHmac('sha256', this.#key).update(`dashboard-login:${body}`).digest('base64url');
  }
}
