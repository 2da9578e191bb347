import type { ReactNode } from 'react';
import { Button } from './button.js';
import { CopyField } from './copy-field.js';

/**
 * A dialog's view of a secret the server answers once (a client secret after create or rotate, a setup
 * link): shown read-only with a copy button and the warning that it cannot be shown again, since the
 * server keeps only its hash; `onDone` closes the dialog. `notice` and `description` say what the secret
 * is for, when it is not an application's.
 */
export function OneTimeSecret(props: {
  readonly label: string;
  readonly value: string;
  readonly onDone: () => void;
  readonly notice?: ReactNode;
  readonly description?: ReactNode;
}) {
  return (
    <>
      <div className="dialog-body">
        <p className="notice notice-warning" role="note">
          {props.notice ??
            'Copy this secret now: this is the only time it is shown. Svc keeps only its hash, so if it is lost, rotate it to get a new one.'}
        </p>
        <CopyField
          label={props.label}
          value={props.value}
          what="the secret"
          description={
            props.description ?? (
              <>Put it in the application&apos;s server-side configuration, never in a browser.</>
            )
          }
        />
      </div>
      <div className="dialog-actions">
        <Button tone="primary" onPress={props.onDone}>
          I have copied it
        </Button>
      </div>
    </>
  );
}
