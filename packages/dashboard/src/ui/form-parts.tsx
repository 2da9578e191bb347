import type { ReactNode } from 'react';
import { Button } from './button.js';

/** Why a form or a dialog's action was refused (the server's message), announced when it appears. */
export function ErrorText(props: { readonly message: string | undefined }) {
  if (props.message === undefined) return null;
  return (
    <p className="error" role="alert">
      {props.message}
    </p>
  );
}

/** A form's submit button, with the form's error above it. */
export function SubmitRow(props: {
  readonly label: string;
  readonly pending: boolean;
  readonly error?: string | undefined;
}) {
  return (
    <>
      <ErrorText message={props.error} />
      <div className="form-actions">
        <Button tone="primary" type="submit" isPending={props.pending}>
          {props.label}
        </Button>
      </div>
    </>
  );
}

/**
 * A dialog's buttons: Cancel, and its action (a submit button of the dialog's form unless `onPress`
 * is given), which waits while `pending`.
 */
export function DialogButtons(props: {
  readonly close: () => void;
  readonly pending: boolean;
  readonly children: ReactNode;
  readonly tone?: 'primary' | 'danger';
  readonly onPress?: () => void;
  readonly isDisabled?: boolean;
}) {
  return (
    <div className="dialog-actions">
      <Button tone="quiet" onPress={props.close} isDisabled={props.pending}>
        Cancel
      </Button>
      <Button
        tone={props.tone ?? 'primary'}
        isPending={props.pending}
        isDisabled={props.isDisabled ?? false}
        {...(props.onPress === undefined ? { type: 'submit' as const } : { onPress: props.onPress })}
      >
        {props.children}
      </Button>
    </div>
  );
}
