import { createHmac } from 'node:crypto';
import { safeEqual } from '../kernel/crypto.js';

/** How long a dashboard sign-in may take between /login and /callback. */
export const LOGIN_STATE_LIFETIME_MS = 10 * 60 * 1000;

/**
 * What the browser carries through the sign-in: the OAuth state, the PKCE verifier, and the console
 * page to open afterwards (a path below the dashboard base, checked before it was sealed).
 */
export interface LoginState {
  readonly state: string;
  readonly verifier: string;
  readonly returnTo: string | null;
}

const PART = /^[A-Za-z0-9_-]{43}$/;
const ENCODED = /^[A-Za-z0-9_-]{0,2800}$/;

/**
 * The dashboard sign-in's state and PKCE verifier in a cookie of their own, with an expiry and an HMAC
 * (a key derived for this purpose): nothing is stored, a node that did not start the sign-in can finish
 * it, and a browser cannot bring a state, verifier or return path Svc did not make (the state is
 * compared with the callback's in constant time).
 */
export class LoginStates {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = key;
  }

  seal(login: LoginState, now: number): string {
    const returnTo = Buffer.from(login.returnTo ?? '', 'utf8').toString('base64url');
    const body = `${login.state}.${login.verifier}.${returnTo}.${now + LOGIN_STATE_LIFETIME_MS}`;
    return `${body}.${this.#mac(body)}`;
  }

  /** The state in a cookie value when its HMAC holds and it has not expired; otherwise undefined. */
  open(value: string | undefined, now: number): LoginState | undefined {
    const [state, verifier, returnTo, expires, mac, ...rest] = (value ?? '').split('.');
    if (
      state === undefined ||
      verifier === undefined ||
      returnTo === undefined ||
      expires === undefined ||
      mac === undefined
    ) {
      return undefined;
    }
    if (rest.length > 0 || !PART.test(state) || !PART.test(verifier) || !ENCODED.test(returnTo)) {
      return undefined;
    }
    if (!/^\d{1,16}$/.test(expires)) return undefined;
    if (!safeEqual(mac, this.#mac(`${state}.${verifier}.${returnTo}.${expires}`)) || Number(expires) <= now) {
      return undefined;
    }
    const path = Buffer.from(returnTo, 'base64url').toString('utf8');
    return { state, verifier, returnTo: path === '' ? null : path };
  }

  #mac(body: string): string {
    return createHmac('sha256', this.#key).update(`dashboard-login:${body}`).digest('base64url');
  }
}
