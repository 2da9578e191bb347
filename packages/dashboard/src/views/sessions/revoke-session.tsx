import type { SvcAdminSessionRevocationPreview, SvcSession } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { messageOf } from '../../api/client.js';
import { invalidate } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ModalDialog } from '../../ui/dialog.js';
import { announceResult, executeRevocation, previewRevocation, previewWords } from './revocation.js';

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
      setPreview(await previewRevocation(selector));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  const revoke = async (close: () => void) => {
    if (preview === undefined) return;
    setPending(true);
    try {
      const result = await executeRevocation(selector, preview, 'admin_revoked');
      await invalidate(client, 'auth', ['/sessions', '/users']);
      announceResult(result);
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
              <p>{previewWords(preview)} The application must sign the user in again.</p>
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
