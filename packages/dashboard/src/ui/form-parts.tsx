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

/**
 * The end of a `useContractForm` form: what the server refused outside any field, then the submit
 * button (waiting while the call runs) and any other actions beside it.
 */
export function FormActions(props: {
  readonly form: { readonly formError: string | undefined; readonly pending: boolean };
  readonly submit: string;
  readonly children?: ReactNode;
}) {
  return (
    <>
      <ErrorText message={props.form.formError} />
      <div className="form-actions">
        <Button type="submit" tone="primary" isPending={props.form.pending}>
          {props.submit}
        </Button>
        {props.children}
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
