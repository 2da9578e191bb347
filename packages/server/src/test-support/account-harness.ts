import type { SvcCreatedClient, SvcUser } from '@svc/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AccountOperations } from '../account/account-operations.js';
import type { Dialect } from '../storage/database.js';
import { startTestSmtpServer, type CapturedEmail, type TestSmtpServer } from './smtp-server.js';
import { createTestSvc, type TestSvc } from './test-svc.js';

export const ACCOUNT_PASSWORD = 'correct horse battery staple';

let counter = 0;
/** An address no other test of the run uses. */
export const uniqueEmail = (prefix = 'user') => `${prefix}-${process.pid}-${(counter += 1)}@example.com`;

/** The stored `emailVerified` flag of a user (0 or 1). */
export async function emailVerifiedOf(t: TestSvc, userId: string): Promise<number> {
  const row = await t.svc.database.db
    .selectFrom('users')
    .select('emailVerified')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.emailVerified;
}

export interface AccountHarness {
  readonly t: TestSvc;
  readonly smtp: TestSmtpServer;
  readonly account: AccountOperations;
  /** The real app (`svc.app`). */
  readonly app: FastifyInstance;
  readonly authBase: string;
  post(path: string, payload?: object | string): Promise<LightMyRequestResponse>;
  user(email?: string, password?: string | null): Promise<SvcUser & { readonly email: string }>;
  firstPartyClient(isFirstParty?: boolean): Promise<SvcCreatedClient>;
  /** The link in the last captured email to `to`, and its `token` query parameter. */
  linkTo(to: string): { url: URL; token: string };
  /** Emails captured for an address so far. */
  sentTo(to: string): CapturedEmail[];
  close(): Promise<void>;
}

/** A test Svc on `kind` whose email goes through a loopback SMTP server, with the account operations. */
export async function createAccountHarness(
  kind: Dialect = 'sqlite',
  smtpOptions: { rejectRecipients?: string } = {},
): Promise<AccountHarness> {
  const smtp = await startTestSmtpServer(smtpOptions);
  const t = await createTestSvc(kind, { smtpUrl: smtp.url(), development: true });
  const { svc } = t;
  const { account, app } = svc;
  const authBase = svc.config.authBase;
  const sentTo = (to: string) => smtp.messages.filter((m) => m.rcptTo.includes(to));
  return {
    t,
    smtp,
    account,
    app,
    authBase,
    post: (path, payload) =>
      app.inject({
        method: 'POST',
        url: `${authBase}${path}`,
        ...(payload === undefined
          ? {}
          : {
              headers: { 'content-type': 'application/json' },
              payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
            }),
      }),
    user: (email, password = ACCOUNT_PASSWORD) =>
      svc.admin.createUserAsync({
        displayName: 'Ann Example',
        email: email ?? uniqueEmail(),
        password,
      }),
    firstPartyClient: (isFirstParty = true) =>
      svc.admin.createClientAsync({
        clientId: `app-${process.pid}-${(counter += 1)}`,
        name: 'Example App',
        audience: 'https://api.example.com',
        redirectUris: ['https://app.example.com/callback'],
        isFirstParty,
        allowedScopes: ['openid'],
      }),
    linkTo(to) {
      // The operation awaits delivery and the server captures a message before it acknowledges it.
      const message = sentTo(to).at(-1);
      const match = /https?:\/\/[^\s<>"]+/.exec(message?.text ?? '');
      if (match === null) throw new Error(`no email with a link to ${to}`);
      const url = new URL(match[0]);
      return { url, token: url.searchParams.get('token') ?? '' };
    },
    sentTo,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}
