import { readFileSync } from 'node:fs';
import {
  DEFAULT_HEADLESS_BASE_PATH as CONTRACT_BASE_PATH,
  HEADLESS_VIEWS as CONTRACT_VIEWS,
  headlessActionResultSchema,
  headlessStartBodySchema,
  type SvcHeadlessActionResult as ContractActionResult,
  type SvcHeadlessStartBody,
} from '@svc/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createPkcePair } from './pkce.js';
import {
  DEFAULT_HEADLESS_BASE_PATH,
  HEADLESS_VIEWS,
  type SvcHeadlessActionResult,
  type SvcHeadlessStartRequest,
} from './types.js';
import { VERSION } from './version.js';

/** The headless package keeps its own copies (it has no runtime dependency); these checks keep them honest. */
describe('headless package and the server contract', () => {
  const versionOf = (pkg: string) =>
    (
      JSON.parse(readFileSync(new URL(`../../${pkg}/package.json`, import.meta.url), 'utf8')) as {
        version: string;
      }
    ).version;

  it('has the same version as the server (SPEC.md "Versioning": currently 7.1.0)', () => {
    expect(versionOf('headless')).toBe('7.1.0');
    expect(versionOf('headless')).toBe(versionOf('server'));
    expect(VERSION).toBe(versionOf('headless'));
  });

  it('lists the same 28 views in the same order, and the same default base path', () => {
    expect(HEADLESS_VIEWS).toEqual(CONTRACT_VIEWS);
    expect(HEADLESS_VIEWS).toHaveLength(28);
    expect(DEFAULT_HEADLESS_BASE_PATH).toBe(CONTRACT_BASE_PATH);
  });

  it('sends a /start body that the contract accepts', async () => {
    const pkce = await createPkcePair();
    const body: SvcHeadlessStartRequest = {
      responseType: 'code',
      clientId: 'web',
      redirectUri: 'https://app.example.com/callback',
      codeChallenge: pkce.codeChallenge,
      codeChallengeMethod: pkce.codeChallengeMethod,
      view: 'signup',
      maxAge: 0,
    };
    expect(headlessStartBodySchema.parse(body)).toEqual(body);
  });

  it('reads action results the contract describes', () => {
    const result: SvcHeadlessActionResult = {
      type: 'redirect',
      redirectUrl: 'https://app.example.com/callback?code=x',
      viewModel: null,
    };
    expect(headlessActionResultSchema.parse(result)).toEqual(result);
  });

  it('declares types that agree with the contract', () => {
    expectTypeOf<SvcHeadlessStartRequest>().toEqualTypeOf<SvcHeadlessStartBody>();
    expectTypeOf<ContractActionResult>().toExtend<SvcHeadlessActionResult>();
    expectTypeOf<SvcHeadlessActionResult>().toExtend<ContractActionResult>();
  });
});
