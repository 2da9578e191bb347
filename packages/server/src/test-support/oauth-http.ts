import { createHash, randomBytes } from 'node:crypto';
import type { CreateClientBody, SvcCreatedClient, SvcUser } from '@svc/contract';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { s256Challenge } from '../oauth/pkce.js';
import type { TestSvc } from './test-svc.js';

/** The app the /token, /userinfo and discovery HTTP tests talk to: the real one (`svc.app`). */
export async function oauthTestApp(t: TestSvc): Promise<FastifyInstance> {
  return t.svc.app;
}

export const REDIRECT_URI = 'https://app.example.com/callback';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A form POST body; arrays repeat the parameter. */
export function form(params: Readonly<Record<string, string | readonly string[] | undefined>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const one of typeof value === 'string' ? [value] : value) search.append(name, one);
  }
  return search.toString();
}

/**
 * The `at_hash` an ID token must carry for `accessToken` (OpenID Connect Core §3.1.3.6 with RS256): the
 * left-most half of the SHA-256 of its ASCII octets, base64url. Computed here, apart from the signing
 * thread that adds it, so that the tests check Svc's value against the specification's rule.
 */
export function expectedAtHash(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest().subarray(0, 16).toString('base64url');
}

/** `Authorization: Basic` with both parts form-encoded (RFC 6749 §2.3.1). */
export function basicAuth(clientId: string, secret: string): string {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
}

let counter = 0;

/** Builders and calls over one TestSvc and its OAuth app. */
export interface OAuthGiven {
  readonly app: FastifyInstance;
  user(fields?: { email?: string; displayName?: string }): Promise<SvcUser & { readonly email: string }>;
  /** A client; public, first-party, `openid profile email offline_access` unless overridden. */
  client(body?: Partial<CreateClientBody>): Promise<SvcCreatedClient>;
  /** An organization with the user as a member. */
  organizationOf(userId: string): Promise<string>;
  /** A PKCE-bound code issued the way /authorize issues it; with its verifier. */
  code(input: CodeInput): Promise<{ code: string; verifier: string }>;
  /** POST /token with a form body. */
  token(
    params: Readonly<Record<string, string | readonly string[] | undefined>>,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
}

export interface CodeInput {
  readonly clientId: string;
  readonly userId: string;
  readonly scopes?: readonly string[];
  readonly organizationId?: string | null;
  readonly resource?: string | null;
  readonly nonce?: string | null;
  readonly redirectUri?: string;
  /** False for a code without PKCE binding. */
  readonly pkce?: boolean;
}

export async function oauthGiven(t: TestSvc): Promise<OAuthGiven> {
  const app = await oauthTestApp(t);
  const { svc, clock } = t;
  return {
    app,
    user: (fields = {}) => {
      counter += 1;
      return svc.admin.createUserAsync({
        displayName: fields.displayName ?? `User ${counter}`,
        email: fields.email ?? `user${counter}@example.com`,
        password: 'correct horse battery staple',
      });
    },
    client: (body = {}) => {
      counter += 1;
      return svc.admin.createClientAsync({
        clientId: `client-${counter}`,
        name: `Client ${counter}`,
        audience: `https://api${counter}.example.com`,
        redirectUris: [REDIRECT_URI],
        isFirstParty: true,
        allowedScopes: ['openid', 'profile', 'email', 'offline_access'],
        ...body,
      });
    },
    organizationOf: async (userId) => {
      counter += 1;
      const organization = await svc.admin.createOrganizationAsync({ name: `Org ${counter}` });
      await svc.admin.createMembershipAsync({ organizationId: organization.id, userId, role: 'member' });
      return organization.id;
    },
    code: async (input) => {
      const verifier = randomBytes(32).toString('base64url');
      const { code } = await svc.authEngine.tokens.codes.issue({
        clientId: input.clientId,
        userId: input.userId,
        organizationId: input.organizationId ?? null,
        redirectUri: input.redirectUri ?? REDIRECT_URI,
        codeChallenge: input.pkce === false ? null : s256Challenge(verifier),
        scopes: input.scopes ?? ['openid', 'profile', 'email'],
        resource: input.resource ?? null,
        nonce: input.nonce ?? null,
        authTime: clock.now(),
        amr: ['pwd'],
      });
      return { code, verifier };
    },
    token: (params, headers = {}) =>
      app.inject({
        method: 'POST',
        url: `${svc.config.authBase}/token`,
        headers: { ...FORM, ...headers },
        payload: form(params),
      }),
    inject: (options) => app.inject(options),
  };
}
