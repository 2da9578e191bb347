import { svcCreatedClientSchema, type SvcClient } from '@svc/contract';
import { useState } from 'react';
import { apiSend } from '../../api/client.js';
import { Button } from '../../ui/button.js';
import { ModalDialog } from '../../ui/dialog.js';
import { OneTimeSecret } from '../../ui/secret.js';
import { notify } from '../../ui/toast.js';
import { useCall } from '../../ui/use-call.js';
import { clientPath } from './client-paths.js';
import { DialogButtons, ErrorText } from '../../ui/form-parts.js';

/**
 * "Rotate secret": a confirmation that the current secret stops working at once, then the new secret,
 * which the server answers this once (the dialog then closes only by its button).
 */
export function RotateSecret(props: { readonly client: SvcClient }) {
  const { client } = props;
  const [secret, setSecret] = useState<string>();
  const call = useCall();
  const rotate = () =>
    call.run(async () => {
      const rotated = await apiSend(
        'POST',
        'auth',
        `${clientPath(client.clientId)}/rotate-secret`,
        undefined,
        svcCreatedClientSchema,
      );
      setSecret(rotated.clientSecret);
      notify.success(`Rotated the secret of ${client.name}.`);
    });
  return (
    <ModalDialog
      title={secret === undefined ? 'Rotate the client secret?' : 'The new client secret'}
      isDismissable={secret === undefined}
      onOpenChange={(open) => {
        if (!open) {
          setSecret(undefined);
          call.clearError();
        }
      }}
      trigger={<Button>Rotate secret</Button>}
    >
      {(close) =>
        secret === undefined ? (
          <>
            <div className="dialog-body">
              <p>
                Svc makes a new secret for {client.name} and the current one stops working at once, on every
                node: until the application is given the new secret, its calls to /token fail with
                invalid_client. Its users stay signed in.
              </p>
            </div>
            <ErrorText message={call.error} />
            <DialogButtons close={close} pending={call.pending} tone="danger" onPress={() => void rotate()}>
              Rotate secret
            </DialogButtons>
          </>
        ) : (
          <OneTimeSecret label="New client secret" value={secret} onDone={close} />
        )
      }
    </ModalDialog>
  );
}
