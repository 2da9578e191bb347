import { wireInvitations } from '../app/wire-invitations.js';
import { startTestSmtpServer, type TestSmtpServer } from './smtp-server.js';
import { createTestSvc, type TestSvc } from './test-svc.js';
import type { Dialect } from '../storage/database.js';
import type { InvitationService } from '../signin/methods/invitation/invitation-service.js';
import type { InvitationSignup } from '../signin/methods/invitation/invitation-signup.js';

/** A test Svc with real SMTP on loopback and the InvitationService built from its parts. */
export interface InvitationHarness {
  readonly t: TestSvc;
  readonly smtp: TestSmtpServer;
  readonly invitations: InvitationService;
  readonly signup: InvitationSignup;
  close(): Promise<void>;
}

/**
 * Builds the harness: the invitation service over the services of a test `svc`.
 */
export async function createInvitationHarness(kind: Dialect): Promise<InvitationHarness> {
  const smtp = await startTestSmtpServer();
  const t = await createTestSvc(kind, { smtpUrl: smtp.url() });
  const { svc } = t;
  const { invitations, signup } = wireInvitations({
    db: svc.database.db,
    config: svc.config,
    email: svc.email,
    rateLimiter: svc.rateLimiter,
    audit: svc.audit,
    clock: svc.config.clock,
    ids: svc.config.ids,
    engine: svc.authEngine,
  });
  return {
    t,
    smtp,
    invitations,
    signup,
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
