import type { Dialect } from '../storage/database.js';
import type { InvitationService } from '../signin/methods/invitation/invitation-service.js';
import type { InvitationSignup } from '../signin/methods/invitation/invitation-signup.js';
import { startTestSmtpServer, type TestSmtpServer } from './smtp-server.js';
import { createTestSvc, type TestSvc } from './test-svc.js';

/** A test Svc with real SMTP on loopback, and its invitation operations at hand. */
export interface InvitationHarness {
  readonly t: TestSvc;
  readonly smtp: TestSmtpServer;
  /** The app's invitation service (`svc.invitations`). */
  readonly invitations: InvitationService;
  /** The invitation signup, through SvcAuthService (AcceptEmailInvitationSignupAsync). */
  readonly signup: Pick<InvitationSignup, 'acceptEmailInvitationSignup'>;
  close(): Promise<void>;
}

/** Builds the harness: a test Svc of `kind` that mails through a loopback SMTP server. */
export async function createInvitationHarness(kind: Dialect): Promise<InvitationHarness> {
  const smtp = await startTestSmtpServer();
  const t = await createTestSvc(kind, { smtpUrl: smtp.url() });
  const { svc } = t;
  return {
    t,
    smtp,
    invitations: svc.invitations,
    signup: { acceptEmailInvitationSignup: (...args) => svc.auth.acceptEmailInvitationSignupAsync(...args) },
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}

/** The token of the InviteUrl in a captured email's text part. */
export function inviteToken(text: string): string {
  const match = /\/invitations\/accept\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no invite link in: ${text}`);
  return match[1];
}
