import { Button } from './button.js';

/**
 * The end of a form in a dialog: what the server refused that no field names, then Cancel and the
 * submit button (which waits while the form is sent).
 */
export function FormActions(props: {
  readonly submitLabel: string;
  readonly pending: boolean;
  readonly formError: string | undefined;
  readonly onCancel: () => void;
}) {
  return (
    <>
      {props.formError !== undefined && (
        <p className="error" role="alert">
          {props.formError}
        </p>
      )}
      <div className="dialog-actions">
        <Button tone="quiet" onPress={props.onCancel} isDisabled={props.pending}>
          Cancel
        </Button>
        <Button tone="primary" type="submit" isPending={props.pending}>
          {props.submitLabel}
        </Button>
      </div>
    </>
  );
}
