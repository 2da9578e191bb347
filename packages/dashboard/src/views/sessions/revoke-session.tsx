import {
  svcAdminSessionRevocationPreviewSchema,
  svcAdminSessionRevocationResultSchema,
  type SvcAdminSessionRevocationPreview,
  type SvcSession,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiSend, messageOf } from '../../api/client.js';
import { invalidate } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ModalDialog } from '../../ui/dialog.js';
import { plural } from '../../ui/format.js';
import { notify } from '../../ui/toast.js';

/**
 * Revokes one session the way the API asks for it: a preview says what the selector matches, the
 * operator confirms that count, and the execution sends it as `expectedMatchedSessions` so that nothing
 * else is revoked if the sessions changed meanwhile.
 */
export function RevokeSession(props: { readonly session: SvcSession }) {
  const client = useQueryClient();
  const selector = { sessionId: props.session.id };
  const [preview, setPreview] = useState<SvcAdminSessionRevocationPreview>();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const open = async () => {
    setError(undefined);
    setPreview(undefined);
    try {
      setPreview(
        await apiSend(
          'POST',
          'auth',
          '/sessions/revocation/preview',
          selector,
          svcAdminSessionRevocationPreviewSchema,
        ),
      );
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  const revoke = async (close: () => void) => {
    if (preview === undefined) return;
    setPending(true);
    try {
      const result = await apiSend(
        'POST',
        'auth',
        '/sessions/revocation',
        {
          ...selector,
          confirm: true,
          expectedMatchedSessions: preview.matchedSessions,
          reason: 'admin_revoked',
        },
        svcAdminSessionRevocationResultSchema,
      );
      await invalidate(client, 'auth', ['/sessions', '/users']);
      notify.success(`Revoked ${plural(result.newlyRevokedSessions, 'session')}.`);
      close();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setPending(false);
    }
  };
  return (
    <ModalDialog
      title="Revoke this session?"
      onOpenChange={(isOpen) => void (isOpen && open())}
      trigger={
        <Button tone="danger" isDisabled={!props.session.active}>
          Revoke
        </Button>
      }
    >
      {(close) => (
        <>
          <div className="dialog-body">
            {preview === undefined && error === undefined && <p className="muted">Checking what it ends…</p>}
            {preview !== undefined && (
              <p>
                This ends {plural(preview.matchedSessions, 'session')} and its{' '}
                {plural(preview.activeRefreshTokens, 'usable refresh token')}
                {preview.activeBrowserSessions > 0 &&
                  `, and signs the user out of ${plural(preview.activeBrowserSessions, 'browser')}`}
                . The application must sign the user in again.
              </p>
            )}
          </div>
          {error !== undefined && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <div className="dialog-actions">
            <Button tone="quiet" onPress={close} isDisabled={pending}>
              Cancel
            </Button>
            <Button
              tone="danger"
              isDisabled={preview === undefined}
              isPending={pending}
              onPress={() => void revoke(close)}
            >
              Revoke
            </Button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
