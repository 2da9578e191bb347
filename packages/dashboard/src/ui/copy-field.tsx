import type { ReactNode } from 'react';
import { Input, Label, Text, TextField } from 'react-aria-components';
import { Button } from './button.js';
import { notify } from './toast.js';

/** Puts `value` on the clipboard and says so; `what` names it in the toast ("the ACS URL"). */
export function copyToClipboard(value: string, what: string): Promise<void> {
  return navigator.clipboard.writeText(value).then(
    () => void notify.success(`Copied ${what}.`),
    () => void notify.failure('Could not copy', 'Select the text and copy it with the keyboard.'),
  );
}

/**
 * A value to hand to someone else (a secret, a URL for an identity provider, a DNS record): read-only,
 * selected whole when focused, with a Copy button named after it.
 */
export function CopyField(props: {
  readonly label: string;
  readonly value: string;
  readonly description?: ReactNode;
  /** What the toast calls it ("the secret"); "the" and the label by default. */
  readonly what?: string;
}) {
  return (
    <TextField className="field" value={props.value} isReadOnly>
      <Label>{props.label}</Label>
      <div className="search-row">
        <Input className="secret-value" onFocus={(event) => event.currentTarget.select()} />
        <Button
          aria-label={`Copy ${props.label}`}
          onPress={() => void copyToClipboard(props.value, props.what ?? `the ${props.label}`)}
        >
          Copy
        </Button>
      </div>
      {props.description !== undefined && <Text slot="description">{props.description}</Text>}
    </TextField>
  );
}
