import { Input, Label, Text, TextField } from 'react-aria-components';
import { Button } from './button.js';
import { notify } from './toast.js';

/**
 * A dialog's view of a secret the server answers once (a client secret after create or rotate): shown
 * read-only with a copy button and the warning that it cannot be shown again, since the server keeps
 * only its hash; `onDone` closes the dialog.
 */
export function OneTimeSecret(props: {
  readonly label: string;
  readonly value: string;
  readonly onDone: () => void;
}) {
  const copy = () =>
    navigator.clipboard.writeText(props.value).then(
      () => notify.success('Copied the secret.'),
      () => notify.failure('Could not copy', 'Select the secret and copy it with the keyboard.'),
    );
  return (
    <>
      <div className="dialog-body">
        <p className="notice notice-warning" role="note">
          Copy this secret now: this is the only time it is shown. Svc keeps only its hash, so if it is lost,
          rotate it to get a new one.
        </p>
        <TextField className="field" value={props.value} isReadOnly>
          <Label>{props.label}</Label>
          <div className="search-row">
            <Input className="secret-value" onFocus={(event) => event.currentTarget.select()} />
            <Button onPress={() => void copy()}>Copy</Button>
          </div>
          <Text slot="description">
            Put it in the application&apos;s server-side configuration, never in a browser.
          </Text>
        </TextField>
      </div>
      <div className="dialog-actions">
        <Button tone="primary" onPress={props.onDone}>
          I have copied it
        </Button>
      </div>
    </>
  );
}
