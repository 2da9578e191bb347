import type { CreateClientBody, SvcCreatedClient, SvcOrganization, SvcUser } from '@svc/contract';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { SvcOptions } from '../config/options.js';
import type { HostedSignInDeps } from '../hosted/sign-in-deps.js';
import type { IssuedTokens } from '../oauth/tokens/issued-tokens.js';
import type { RedeemInput } from '../oauth/tokens/authorization-codes.js';
import type { Dialect } from '../storage/database.js';
import { clientRepository } from '../storage/repositories/clients.js';
import type { AuditEventsTable } from '../storage/schema.js';
import { CLIENT_REDIRECT_URI } from './authorize-params.js';
import { startTestSmtpServer, type TestSmtpServer } from './smtp-server.js';
import { createTestSvc, type TestSvc } from './test-svc.js';

export const HOSTED_PASSWORD = 'correct horse battery staple';

/** Builders over the TestSvc's admin facade. */
export interface HostedGiven {
  /** An active user with HOSTED_PASSWORD. */
  user(email?: string): Promise<SvcUser & { readonly email: string }>;
  /** An organization, with `memberId` as a member when given. */
  organization(name?: string, memberId?: string): Promise<SvcOrganization>;
  /** A first-party public client with `openid profile email` unless overridden. */
  client(body?: Partial<CreateClientBody>): Promise<SvcCreatedClient>;
}

export interface HostedTestApp {
  readonly t: TestSvc;
  /** The real app (`svc.app`): GET /authorize and the hosted pages at the auth base. */
  readonly app: FastifyInstance;
  readonly deps: HostedSignInDeps;
  readonly authBase: string;
  readonly given: HostedGiven;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  /**
   * Redeems the code of a redirect the way POST /token does (the engine's `codes.redeem`), with the
   * registered redirect URI; `extra` overrides the redemption input.
   */
  redeem(
    redirect: URL,
    clientId: string,
    codeVerifier: string,
    extra?: Partial<Omit<RedeemInput, 'client'>>,
  ): Promise<IssuedTokens>;
  /** The audit events of one kind written so far. */
  auditEvents(kind: string): Promise<AuditEventsTable[]>;
  close(): Promise<void>;
}

let counter = 0;
/** A name no other test of the run uses. */
export const uniqueName = (prefix: string) => `${prefix}-${process.pid}-${(counter += 1)}`;

/** A TestSvc (SQLite by default) with the hosted sign-in app over it. */
export async function createHostedTestApp(
  kind: Dialect = 'sqlite',
  options: SvcOptions = {},
): Promise<HostedTestApp> {
  const t = await createTestSvc(kind, options);
  const { svc } = t;
  try {
    const deps = svc.hostedSignIn;
    const app = svc.app;
    return {
      t,
      app,
      deps,
      authBase: svc.config.authBase,
      given: {
        user: (email) =>
          svc.admin.createUserAsync({
            displayName: uniqueName('User'),
            email: email ?? `${uniqueName('user')}@example.com`,
            password: HOSTED_PASSWORD,
          }),
        organization: async (name, memberId) => {
          const organization = await svc.admin.createOrganizationAsync({ name: name ?? uniqueName('Org') });
          if (memberId !== undefined) {
            await svc.admin.createMembershipAsync({
              organizationId: organization.id,
              userId: memberId,
              role: 'member',
            });
          }
          return organization;
        },
        client: (body = {}) =>
          svc.admin.createClientAsync({
            clientId: uniqueName('client'),
            name: uniqueName('App'),
            audience: 'https://api.example.com',
            redirectUris: ['https://app.example.com/callback'],
            isFirstParty: true,
            allowedScopes: ['openid', 'profile', 'email'],
            ...body,
          }),
      },
      inject: (injectOptions) => app.inject(injectOptions),
      redeem: async (redirect, clientId, codeVerifier, extra = {}) => {
        const client = await clientRepository(svc.database.db).findByClientId(clientId);
        if (client === undefined) throw new Error(`no client ${clientId}`);
        return svc.authEngine.tokens.codes.redeem({
          code: redirect.searchParams.get('code') ?? '',
          client,
          redirectUri: CLIENT_REDIRECT_URI,
          codeVerifier,
          ...extra,
        });
      },
      auditEvents: (kind) =>
        svc.database.db.selectFrom('auditEvents').selectAll().where('kind', '=', kind).execute(),
      close: () => t.close(),
    };
  } catch (error) {
    await t.close();
    throw error;
  }
}

/** A HostedTestApp that sends its email by SMTP to a loopback server (`smtp`), which it closes too. */
export interface MailedHostedTestApp extends HostedTestApp {
  readonly smtp: TestSmtpServer;
}

/** createHostedTestApp with a loopback SMTP server as its mail relay, so tests read what users get. */
export async function createMailedHostedTestApp(
  kind: Dialect = 'sqlite',
  options: SvcOptions = {},
): Promise<MailedHostedTestApp> {
  const smtp = await startTestSmtpServer();
  try {
    const hosted = await createHostedTestApp(kind, { ...options, smtpUrl: smtp.url() });
    return {
      ...hosted,
      smtp,
      async close() {
        await hosted.close();
        await smtp.close();
      },
    };
  } catch (error) {
    await smtp.close();
    throw error;
  }
}

/** A user the harnesses created from an address (so it has one). */
export type TestUser = SvcUser & { readonly email: string };
