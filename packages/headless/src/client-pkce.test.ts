import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { createHeadlessClient, type FetchLike } from './client.js';
import { SvcHeadlessError } from './errors.js';
import type { SvcHeadlessActionResult } from './types.js';
import { type SvcHeadlessStorage, VERIFIER_KEY_PREFIX } from './verifiers.js';

const challengeOf = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');

const view = (requestId: string, view = 'password'): SvcHeadlessActionResult => ({
  type: 'view',
  redirectUrl: null,
  viewModel: {
    view: view as 'password',
    requestId,
    settings: { enabledCredentialTypes: ['password'] },
    providers: [],
    organizationSelection: null,
  },
});
const CODE_REDIRECT: SvcHeadlessActionResult = {
  type: 'redirect',
  redirectUrl: 'https://app.example.com/cb?code=c0de&state=s',
  viewModel: null,
  authorization: { code: 'c0de', redirectUri: 'https://app.example.com/cb', state: 's' },
};
const START = {
  responseType: 'code',
  clientId: 'web',
  redirectUri: 'https://app.example.com/cb',
  state: 's',
} as const;

/** A fetch double: answers queued bodies in order and records what was sent. */
function scriptedFetch() {
  const sent: { url: string; init: RequestInit; body: Record<string, unknown> | undefined }[] = [];
  const answers: { status: number; body: unknown }[] = [];
  const fetch: FetchLike = (url, init) => {
    sent.push({
      url,
      init,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined,
    });
    const answer = answers.shift() ?? { status: 500, body: { error: 'unscripted' } };
    return Promise.resolve(Response.json(answer.body, { status: answer.status }));
  };
  const answer = (body: unknown, status = 200) => answers.push({ status, body });
  return { fetch, sent, answer };
}

/** sessionStorage's three methods over a Map. */
function memoryStorage(): SvcHeadlessStorage & { readonly items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

describe('the client keeps the PKCE verifier of a request until its redirect', () => {
  let double: ReturnType<typeof scriptedFetch>;
  beforeEach(() => {
    double = scriptedFetch();
  });

  it('makes an S256 pair for /start and fills the verifier into the code redirect once', async () => {
    const client = createHeadlessClient({ baseUrl: 'https://id.example.com', fetch: double.fetch });
    double.answer(view('req_1'));
    double.answer(CODE_REDIRECT);
    double.answer(CODE_REDIRECT);
    expect(await client.start(START)).toEqual(view('req_1'));
    const challenge = double.sent[0]?.body?.codeChallenge;
    expect(double.sent[0]?.body).toEqual({ ...START, codeChallenge: challenge, codeChallengeMethod: 'S256' });
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const redirect = await client.passwordLogin({ requestId: 'req_1', password: 'pw' });
    const verifier = redirect.authorization?.codeVerifier ?? '';
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challengeOf(verifier)).toBe(challenge);
    expect(redirect).toEqual({
      ...CODE_REDIRECT,
      authorization: { ...CODE_REDIRECT.authorization, codeVerifier: verifier },
    });
    expect(double.sent[1]).toMatchObject({
      url: 'https://id.example.com/svc/auth/headless/password/login',
      init: { method: 'POST', credentials: 'include' },
      body: { requestId: 'req_1', password: 'pw' },
    });
    // Forgotten after use: a verifier is good for one exchange.
    expect(await client.passwordLogin({ requestId: 'req_1', password: 'pw' })).toEqual(CODE_REDIRECT);
  });

  it('keeps the verifier in the storage so that a reloaded page (a new client) completes the request', async () => {
    const storage = memoryStorage();
    double.answer(view('req_2'));
    await createHeadlessClient({ baseUrl: '', fetch: double.fetch, storage }).start(START);
    const stored = storage.items.get(`${VERIFIER_KEY_PREFIX}req_2`) ?? '';
    expect(challengeOf(stored)).toBe(double.sent[0]?.body?.codeChallenge);

    const reloaded = createHeadlessClient({ baseUrl: '', fetch: double.fetch, storage });
    double.answer(CODE_REDIRECT);
    const redirect = await reloaded.getRequest('req_2');
    expect(double.sent[1]?.url).toBe('/svc/auth/headless/requests/req_2');
    expect(redirect.authorization?.codeVerifier).toBe(stored);
    expect(storage.items.size).toBe(0);
  });

  it("fills the caller's own verifier, refuses one that does not match its challenge", async () => {
    const client = createHeadlessClient({ baseUrl: '', fetch: double.fetch });
    const codeVerifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    const own = { ...START, codeChallenge: challengeOf(codeVerifier), codeChallengeMethod: 'S256' } as const;
    await expect(client.start(own, { codeVerifier: `${codeVerifier}x` })).rejects.toThrow(RangeError);
    expect(double.sent).toHaveLength(0);

    double.answer(view('req_3'));
    double.answer(CODE_REDIRECT);
    await client.start(own, { codeVerifier });
    expect(double.sent[0]?.body).toEqual(own);
    const redirect = await client.mfaVerify({ requestId: 'req_3', code: '123456' });
    expect(redirect.authorization?.codeVerifier).toBe(codeVerifier);
  });

  it('derives the challenge from a given verifier, and fills nothing for a challenge without one', async () => {
    const client = createHeadlessClient({ baseUrl: '', fetch: double.fetch });
    const codeVerifier = 'a'.repeat(64);
    double.answer(view('req_4'));
    await client.start(START, { codeVerifier });
    expect(double.sent[0]?.body?.codeChallenge).toBe(challengeOf(codeVerifier));

    double.answer(view('req_5'));
    double.answer(CODE_REDIRECT);
    await client.start({ ...START, codeChallenge: challengeOf(codeVerifier) });
    expect(double.sent[1]?.body?.codeChallengeMethod).toBe('S256');
    expect(await client.consentApprove({ requestId: 'req_5', consentToken: 't' })).toEqual(CODE_REDIRECT);
  });

  it('fills a code redirect that /start answers at once, and forgets the verifier on an error redirect', async () => {
    const client = createHeadlessClient({ baseUrl: '', fetch: double.fetch });
    double.answer(CODE_REDIRECT);
    expect((await client.start(START)).authorization?.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const denied = {
      type: 'redirect',
      redirectUrl: 'https://app.example.com/cb?error=access_denied',
      viewModel: null,
      authorization: null,
    };
    double.answer(view('req_6', 'consent'));
    double.answer(denied);
    double.answer(CODE_REDIRECT);
    await client.start(START);
    expect(await client.consentDeny({ requestId: 'req_6', consentToken: 't' })).toEqual(denied);
    expect(await client.submit('/submit', { action: 'logout', requestId: 'req_6' })).toEqual(CODE_REDIRECT);
  });
});

describe('SvcHeadlessError.result', () => {
  it("is the view of a step's 400 answer, for the UI to render again with the message", async () => {
    const double = scriptedFetch();
    const client = createHeadlessClient({ baseUrl: '', fetch: double.fetch });
    const retry = {
      ...view('req_7'),
      error: 'invalid_credentials',
      message: 'The email or password is not correct.',
    };
    double.answer(retry, 400);
    const error = await client.passwordLogin({ requestId: 'req_7', password: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcHeadlessError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_credentials', message: retry.message });
    expect((error as SvcHeadlessError).result).toEqual(retry);
  });

  it('is undefined for an error without a view', () => {
    expect(new SvcHeadlessError(400, { error: 'validation_failed', message: 'm' }).result).toBeUndefined();
    expect(new SvcHeadlessError(502, 'Bad Gateway').result).toBeUndefined();
    expect(new SvcHeadlessError(400, { type: 'view', redirectUrl: null }).result).toBeUndefined();
  });
});
