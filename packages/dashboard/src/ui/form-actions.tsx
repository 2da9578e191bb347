import type { ReactNode } from 'react';
import { Button } from './button.js';

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
      {props.form.formError !== undefined && (
        <p className="error" role="alert">
          {props.form.formError}
        </p>
      )}
      <div className="form-actions">
        <Button type="submit" tone="primary" isPending={props.form.pending}>
          {props.submit}
        </Button>
        {props.children}
      </div>
    </>
  );
}
