import type { FormEvent, ReactNode } from 'react';
import { Button } from './button.js';

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
      {form.formError !== undefined && (
        <p className="error" role="alert">
          {form.formError}
        </p>
      )}
      <div className="dialog-actions">
        <Button tone="quiet" onPress={props.onCancel} isDisabled={form.pending}>
          Cancel
        </Button>
        <Button tone="primary" type="submit" isPending={form.pending}>
          {props.submitLabel}
        </Button>
      </div>
    </form>
  );
}
