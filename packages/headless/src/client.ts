import type { SvcHeadlessAction, SvcHeadlessActionBodies } from './actions.js';
import type { SvcHeadlessClient, SvcHeadlessStartInput, SvcHeadlessStartOptions } from './client-api.js';
import { SvcHeadlessError, isActionResult } from './errors.js';
import { computeCodeChallenge, createPkcePair } from './pkce.js';
import { DEFAULT_HEADLESS_BASE_PATH, type SvcHeadlessActionResult } from './types.js';
import { type SvcHeadlessStorage, VerifierStore } from './verifiers.js';

/** The `fetch` signature the client needs; the global one, undici's or a test double all fit. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface SvcHeadlessClientOptions {
  /**
   * The server's origin (`https://id.example.com`), or any URL prefix in front of `basePath`. An empty
   * string makes same-origin relative requests in a browser.
   */
  readonly baseUrl: string;
  /** @default '/svc/auth/headless' (DEFAULT_HEADLESS_BASE_PATH) */
  readonly basePath?: string;
  /** @default globalThis.fetch */
  readonly fetch?: FetchLike;
  /**
   * Where the PKCE verifiers of open requests also go (besides memory), so that a page reload keeps
   * them: `sessionStorage` in a browser. Without it a reload loses the verifier of a started request.
   */
  readonly storage?: SvcHeadlessStorage;
}

/**
 * Creates a client of the headless API. Every request is credentialed (`credentials: 'include'`)
 * because the server keeps the sign-in in an HttpOnly issuer-session cookie, which a cross-origin
 * browser app only sends and receives on credentialed requests.
 *
 * PKCE: `start` makes the S256 pair when the body has no challenge and keeps the verifier per
 * requestId; the redirect with a code then carries it in `authorization.codeVerifier`, ready for the
 * exchange at /token, and the client forgets it.
 */
export function createHeadlessClient(options: SvcHeadlessClientOptions): SvcHeadlessClient {
  // Called as a plain function below: browsers reject `fetch` invoked as a method of another object.
  const fetchImpl: FetchLike | undefined =
    options.fetch ?? (typeof globalThis.fetch === 'function' ? globalThis.fetch.bind(globalThis) : undefined);
  if (fetchImpl === undefined)
    throw new Error('No fetch implementation: pass options.fetch on runtimes without a global fetch.');
  const base =
    options.baseUrl.replace(/\/+$/, '') + normalizePath(options.basePath ?? DEFAULT_HEADLESS_BASE_PATH);
  const verifiers = new VerifierStore(options.storage);

  const send = async <T>(method: 'GET' | 'POST', route: string, body?: object): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    const init: RequestInit = { method, headers, credentials: 'include' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetchImpl(base + normalizePath(route), init);
    const text = await response.text();
    const parsed = parseJson(text);
    if (!response.ok)
      throw new SvcHeadlessError(response.status, parsed.ok ? parsed.value : text === '' ? null : text);
    if (!parsed.ok)
      throw new SvcHeadlessError(
        response.status,
        text,
        `The headless API answered ${response.status} with a body that is not JSON.`,
      );
    return parsed.value as T;
  };

  /** A redirect ends the request: its verifier goes into a code's authorization data, then away. */
  const settle = <T>(result: T, requestId: unknown): T => {
    if (!isActionResult(result) || result.type !== 'redirect' || typeof requestId !== 'string') return result;
    const codeVerifier = verifiers.get(requestId);
    verifiers.forget(requestId);
    return withVerifier(result, codeVerifier) as T;
  };

  const start = async (
    body: SvcHeadlessStartInput,
    startOptions: SvcHeadlessStartOptions = {},
  ): Promise<SvcHeadlessActionResult> => {
    let { codeVerifier } = startOptions;
    let codeChallenge = body.codeChallenge;
    if (codeChallenge === undefined) {
      if (codeVerifier === undefined) ({ codeVerifier, codeChallenge } = await createPkcePair());
      else codeChallenge = await computeCodeChallenge(codeVerifier);
    } else if (codeVerifier !== undefined && (await computeCodeChallenge(codeVerifier)) !== codeChallenge) {
      // Caught here: the server would only notice at /token, after the whole sign-in.
      throw new RangeError('options.codeVerifier is not the verifier of body.codeChallenge.');
    }
    const result = await send<SvcHeadlessActionResult>('POST', '/start', {
      ...body,
      codeChallenge,
      codeChallengeMethod: body.codeChallengeMethod ?? 'S256',
    });
    if (codeVerifier === undefined) return result;
    if (result.type === 'redirect') return withVerifier(result, codeVerifier);
    if (result.viewModel !== null) verifiers.remember(result.viewModel.requestId, codeVerifier);
    return result;
  };

  const submit = async <T = SvcHeadlessActionResult>(route: string, body: object): Promise<T> =>
    settle(await send<T>('POST', route, body), (body as { requestId?: unknown }).requestId);

  const action =
    <A extends SvcHeadlessAction>(route: A) =>
    (body: SvcHeadlessActionBodies[A]): Promise<SvcHeadlessActionResult> =>
      submit(route, body);

  return {
    start,
    getRequest: async (requestId) =>
      settle(
        await send<SvcHeadlessActionResult>('GET', `/requests/${encodeURIComponent(requestId)}`),
        requestId,
      ),
    submit,
    identify: action('identify'),
    passwordLogin: action('password/login'),
    passwordForgot: action('password/forgot'),
    passwordReset: action('password/reset'),
    emailOtpStart: action('email-otp/start'),
    emailOtpVerify: action('email-otp/verify'),
    magicLinkStart: action('magic-link/start'),
    magicLinkComplete: action('magic-link/complete'),
    phoneOtpStart: action('phone-otp/start'),
    phoneOtpVerify: action('phone-otp/verify'),
    signup: action('signup'),
    signupEmailOtpStart: action('signup/email-otp/start'),
    signupEmailOtpVerify: action('signup/email-otp/verify'),
    signupPhoneOtpStart: action('signup/phone-otp/start'),
    signupPhoneOtpVerify: action('signup/phone-otp/verify'),
    invitationsResolve: action('invitations/resolve'),
    invitationsSignup: action('invitations/signup'),
    invitationsLogin: action('invitations/login'),
    invitationsAccept: action('invitations/accept'),
    invitationsEmailOtpStart: action('invitations/email-otp/start'),
    invitationsEmailOtpVerify: action('invitations/email-otp/verify'),
    organizationSelect: action('organization/select'),
    mfaVerify: action('mfa/verify'),
    mfaTotpEnrollStart: action('mfa/totp/enroll/start'),
    mfaTotpEnrollVerify: action('mfa/totp/enroll/verify'),
    consentApprove: action('consent/approve'),
    consentDeny: action('consent/deny'),
    providerStart: action('provider/start'),
    deviceResolve: action('device/resolve'),
    deviceApprove: action('device/approve'),
    deviceDeny: action('device/deny'),
    logout: action('logout'),
  };
}

/** The redirect with `codeVerifier` filled into its code's authorization data (when both exist). */
function withVerifier(
  result: SvcHeadlessActionResult,
  codeVerifier: string | undefined,
): SvcHeadlessActionResult {
  const authorization = result.authorization;
  if (authorization === undefined || authorization === null || codeVerifier === undefined) return result;
  return { ...result, authorization: { ...authorization, codeVerifier } };
}

/** `password/login` and `/password/login/` both become `/password/login`. */
function normalizePath(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `/${trimmed}`;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
