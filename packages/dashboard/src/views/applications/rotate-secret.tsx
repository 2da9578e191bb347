import { svcCreatedClientSchema, type SvcClient } from '@svc/contract';
import { useState } from 'react';
import { apiSend, messageOf } from '../../api/client.js';
import { Button } from '../../ui/button.js';
import { ModalDialog } from '../../ui/dialog.js';
import { OneTimeSecret } from '../../ui/secret.js';
import { notify } from '../../ui/toast.js';
import { clientPath } from './client-paths.js';

/**
 * "Rotate secret": a confirmation that the current secret stops working at once, then the new secret,
 * which the server answers this once (the dialog then closes only by its button).
 */
export function RotateSecret(props: { readonly client: SvcClient }) {
  const { client } = props;
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const rotate = async () => {
    setPending(true);
    setError(undefined);
    try {
      const rotated = await apiSend(
        'POST',
        'auth',
        `${clientPath(client.clientId)}/rotate-secret`,
        undefined,
        svcCreatedClientSchema,
      );
      setSecret(rotated.clientSecret);
      notify.success(`Rotated the secret of ${client.name}.`);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setPending(false);
    }
  };
  return (
    <ModalDialog
      title={secret === undefined ? 'Rotate the client secret?' : 'The new client secret'}
      isDismissable={secret === undefined}
      onOpenChange={(open) => {
        if (!open) {
          setSecret(undefined);
          setError(undefined);
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
            {error !== undefined && (
              <p className="error" role="alert">
                {error}
              </p>
            )}
            <div className="dialog-actions">
              <Button tone="quiet" onPress={close} isDisabled={pending}>
                Cancel
              </Button>
              <Button tone="danger" onPress={() => void rotate()} isPending={pending}>
                Rotate secret
              </Button>
            </div>
          </>
        ) : (
          <>
            <div className="dialog-body">
              <OneTimeSecret label="New client secret" value={secret} />
            </div>
            <div className="dialog-actions">
              <Button tone="primary" onPress={close}>
                I have copied it
              </Button>
            </div>
          </>
        )
      }
    </ModalDialog>
  );
}
