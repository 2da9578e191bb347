import type { SvcAdminSessionRevocationPreview, SvcSession } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { invalidate } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { useCall } from '../../ui/use-call.js';
import { ModalDialog } from '../../ui/dialog.js';
import { announceResult, executeRevocation, previewRevocation, previewWords } from './revocation.js';
import { DialogButtons, ErrorText } from '../../ui/form-parts.js';

/**
 * Revokes one session the way the API asks for it: a preview says what the selector matches, the
 * operator confirms that count, and the execution sends it as `expectedMatchedSessions` so that nothing
 * else is revoked if the sessions changed meanwhile.
 */
export function RevokeSession(props: { readonly session: SvcSession }) {
  const client = useQueryClient();
  const selector = { sessionId: props.session.id };
  const [preview, setPreview] = useState<SvcAdminSessionRevocationPreview>();
  const call = useCall();
  const open = () =>
    call.run(async () => {
      setPreview(undefined);
      setPreview(await previewRevocation(selector));
    });
  const revoke = (close: () => void) =>
    call.run(async () => {
      if (preview === undefined) return;
      const result = await executeRevocation(selector, preview, 'admin_revoked');
      await invalidate(client, 'auth', ['/sessions', '/users']);
      announceResult(result);
      close();
    });
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
            {preview === undefined && call.error === undefined && (
              <p className="muted">Checking what it ends…</p>
            )}
            {preview !== undefined && (
              <p>{previewWords(preview)} The application must sign the user in again.</p>
            )}
          </div>
          <ErrorText message={call.error} />
          <DialogButtons
            close={close}
            pending={call.pending}
            tone="danger"
            isDisabled={preview === undefined}
            onPress={() => void revoke(close)}
          >
            Revoke
          </DialogButtons>
        </>
      )}
    </ModalDialog>
  );
}
