import {
  svcAdminSessionRevocationPreviewSchema,
  svcAdminSessionRevocationResultSchema,
  type SvcAdminSessionRevocationPreview,
  type SvcAdminSessionRevocationResult,
} from '@svc/contract';
import { apiSend } from '../../api/client.js';
import { plural } from '../../ui/format.js';
import { notify } from '../../ui/toast.js';

/** What a revocation names: one session, a user's, an organization's or an application's sessions. */
export type RevocationSelector =
  | { readonly sessionId: string }
  | { readonly userId: string }
  | { readonly organizationId: string }
  | { readonly clientApplicationId: string };

/** What the selector matches now; nothing changes. */
export function previewRevocation(selector: RevocationSelector): Promise<SvcAdminSessionRevocationPreview> {
  return apiSend(
    'POST',
    'auth',
    '/sessions/revocation/preview',
    selector,
    svcAdminSessionRevocationPreviewSchema,
  );
}

/**
 * The revocation of what the operator confirmed: `expectedMatchedSessions` is the preview's count, so a
 * selector that matches other sessions by now is refused (409, preview again) rather than revoking them.
 */
export function executeRevocation(
  selector: RevocationSelector,
  preview: SvcAdminSessionRevocationPreview,
  reason: string,
): Promise<SvcAdminSessionRevocationResult> {
  return apiSend(
    'POST',
    'auth',
    '/sessions/revocation',
    { ...selector, confirm: true, expectedMatchedSessions: preview.matchedSessions, reason },
    svcAdminSessionRevocationResultSchema,
  );
}

/** The preview in words: what an execution ends. */
export function previewWords(preview: SvcAdminSessionRevocationPreview): string {
  const tokens = `${preview.matchedSessions === 1 ? 'its' : 'their'} ${plural(preview.activeRefreshTokens, 'usable refresh token')}`;
  const browsers =
    preview.activeBrowserSessions > 0
      ? `, and signs ${preview.matchedSessions === 1 ? 'the user' : 'their users'} out of ${plural(preview.activeBrowserSessions, 'browser')}`
      : '';
  return `This ends ${plural(preview.matchedSessions, 'session')} and ${tokens}${browsers}.`;
}

/** The result in words, for a toast: its title and what else ended. */
export function announceResult(result: SvcAdminSessionRevocationResult): void {
  notify.success(
    `Revoked ${plural(result.newlyRevokedSessions, 'session')}.`,
    result.endedBrowserSessions > 0
      ? `Signed ${plural(result.endedBrowserSessions, 'browser')} out.`
      : undefined,
  );
}
