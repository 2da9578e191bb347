import type { FormEvent, ReactNode } from 'react';
import { DialogButtons, ErrorText } from './form-parts.js';

/**
 * A form in a dialog (from `useContractForm`): its fields, then what the server refused that no field
 * names, then Cancel and the submit button, which waits while the form is sent.
 */
export function DialogForm(props: {
  readonly form: {
    readonly onSubmit: (event: FormEvent) => void;
    readonly pending: boolean;
    readonly formError: string | undefined;
  };
  readonly submitLabel: string;
  readonly onCancel: () => void;
  readonly children: ReactNode;
}) {
  const { form } = props;
  return (
    <form onSubmit={form.onSubmit} noValidate>
      <div className="dialog-body">{props.children}</div>
      <ErrorText message={form.formError} />
      <DialogButtons close={props.onCancel} pending={form.pending}>
        {props.submitLabel}
      </DialogButtons>
    </form>
  );
}
