import { readFileSync } from 'node:fs';
import {
  DEFAULT_HEADLESS_BASE_PATH as CONTRACT_BASE_PATH,
  HEADLESS_ACTIONS,
  HEADLESS_VIEWS as CONTRACT_VIEWS,
  type HeadlessActionBodies,
  headlessActionResultSchema,
  headlessMfaEnrollViewModelSchema,
  headlessStartBodySchema,
  type SvcHeadlessActionResult as ContractActionResult,
  type SvcHeadlessAuthorization as ContractAuthorization,
  type SvcHeadlessMfaEnrollViewModel as ContractMfaEnrollViewModel,
  type SvcHeadlessStartBody,
} from '@svc/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { HEADLESS_ACTION_FIELDS, type SvcHeadlessAction, type SvcHeadlessActionBodies } from './actions.js';
import type { SvcHeadlessClient } from './client-api.js';
import { createHeadlessClient } from './client.js';
import { createPkcePair } from './pkce.js';
import {
  DEFAULT_HEADLESS_BASE_PATH,
  HEADLESS_VIEWS,
  type SvcHeadlessActionResult,
  type SvcHeadlessAuthorization,
  type SvcHeadlessMfaEnrollViewModel,
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

  it('has the same version as the server (docs/reference/sign-in.md "The headless client package")', () => {
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

  it('reads the mfa-enroll view model the contract describes', () => {
    const view: SvcHeadlessMfaEnrollViewModel = {
      view: 'mfa-enroll',
      requestId: 'azr_1',
      settings: { enabledCredentialTypes: ['password'] },
      providers: [],
      organizationSelection: null,
      secret: 'JBSWY3DPEHPK3PXP',
      provisioningUri: 'otpauth://totp/Svc:ann%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Svc',
      qrCodeDataUrl: 'data:image/png;base64,AA==',
      expiresAt: '2030-01-01T00:10:00.000Z',
    };
    expect(headlessMfaEnrollViewModelSchema.parse(view)).toEqual(view);
    const { provisioningUri: _left, ...withoutUri } = view;
    expect(headlessMfaEnrollViewModelSchema.safeParse(withoutUri).success).toBe(false);
  });

  it('declares types that agree with the contract', () => {
    expectTypeOf<SvcHeadlessStartRequest>().toEqualTypeOf<SvcHeadlessStartBody>();
    expectTypeOf<ContractActionResult>().toExtend<SvcHeadlessActionResult>();
    expectTypeOf<SvcHeadlessActionResult>().toExtend<ContractActionResult>();
    expectTypeOf<SvcHeadlessAuthorization>().toEqualTypeOf<ContractAuthorization>();
    expectTypeOf<ContractMfaEnrollViewModel>().toExtend<SvcHeadlessMfaEnrollViewModel>();
    expectTypeOf<SvcHeadlessMfaEnrollViewModel>().toExtend<ContractMfaEnrollViewModel>();
  });
});

/** `password/login` → `passwordLogin`: the client's method of a route. */
type MethodOf<R extends string> = R extends `${infer Head}/${infer Tail}`
  ? `${MethodOf<Head>}${Capitalize<MethodOf<Tail>>}`
  : R extends `${infer Head}-${infer Tail}`
    ? `${Head}${Capitalize<MethodOf<Tail>>}`
    : R;

const methodOf = (route: string): string =>
  route.replace(/[/-]([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The field names of a schema shape, required (undefined refused) or optional (undefined accepted). */
function fieldsOf(shape: Readonly<Record<string, { safeParse(value: unknown): { success: boolean } }>>) {
  // zod 4's own definition of isOptional(), without the deprecated method.
  const names = Object.keys(shape);
  const optional = names.filter((name) => shape[name]?.safeParse(undefined).success === true);
  return { required: names.filter((name) => !optional.includes(name)).sort(), optional: optional.sort() };
}

describe('headless actions and the server contract (HEADLESS_ACTIONS)', () => {
  const contractRoutes = Object.keys(HEADLESS_ACTIONS).sort();

  it('has the same action routes on both sides', () => {
    expect(Object.keys(HEADLESS_ACTION_FIELDS).sort()).toEqual(contractRoutes);
    expect(contractRoutes.length).toBeGreaterThanOrEqual(32);
  });

  it.each(contractRoutes)('sends the fields /%s reads, required and optional alike', (route) => {
    const fields = HEADLESS_ACTION_FIELDS[route as SvcHeadlessAction];
    expect(fields).toBeDefined();
    expect({ required: [...fields.required].sort(), optional: [...fields.optional].sort() }).toEqual(
      fieldsOf(HEADLESS_ACTIONS[route as keyof typeof HEADLESS_ACTIONS].shape),
    );
  });

  it('has one method per route, named after it, posting to that route', async () => {
    const posted: string[] = [];
    const client = createHeadlessClient({
      baseUrl: 'https://id.example.com',
      fetch: (input) => {
        posted.push(input);
        return Promise.resolve(Response.json({ type: 'view', redirectUrl: null, viewModel: null }));
      },
    });
    const methods = Object.keys(client).filter(
      (key) => typeof (client as unknown as Record<string, unknown>)[key] === 'function',
    );
    expect(methods.sort()).toEqual(['getRequest', 'start', 'submit', ...contractRoutes.map(methodOf)].sort());
    for (const route of contractRoutes) {
      const method = (client as unknown as Record<string, (body: object) => Promise<unknown>>)[
        methodOf(route)
      ];
      await method?.({ requestId: 'req_1' });
    }
    expect(posted).toEqual(
      contractRoutes.map((route) => `https://id.example.com/svc/auth/headless/${route}`),
    );
  });

  it('declares the body types the contract infers, with the runtime field lists and method names', () => {
    expectTypeOf<SvcHeadlessActionBodies>().toEqualTypeOf<HeadlessActionBodies>();
    type Fields = typeof HEADLESS_ACTION_FIELDS;
    type Listed = { [R in SvcHeadlessAction]: Fields[R]['required'][number] | Fields[R]['optional'][number] };
    type Declared = { [R in SvcHeadlessAction]: keyof SvcHeadlessActionBodies[R] };
    expectTypeOf<Listed>().toEqualTypeOf<Declared>();
    type OptionalOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
    type ListedOptional = { [R in SvcHeadlessAction]: Fields[R]['optional'][number] };
    type DeclaredOptional = { [R in SvcHeadlessAction]: OptionalOf<SvcHeadlessActionBodies[R]> };
    expectTypeOf<ListedOptional>().toEqualTypeOf<DeclaredOptional>();
    type Methods = {
      [R in SvcHeadlessAction as MethodOf<R>]: (
        body: SvcHeadlessActionBodies[R],
      ) => Promise<SvcHeadlessActionResult>;
    };
    expectTypeOf<Omit<SvcHeadlessClient, 'start' | 'getRequest' | 'submit'>>().toEqualTypeOf<Methods>();
  });
});
