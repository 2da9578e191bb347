import { FieldError, Input, Label, Text, TextField as AriaTextField } from 'react-aria-components';
import type { FieldBinding } from './fields.js';

const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO time as the browser's date-time input shows it, in the operator's time zone ('' for none). */
export function localDateTime(iso: string | undefined): string {
  if (iso === undefined) return '';
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return '';
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}T${pad(time.getHours())}:${pad(
    time.getMinutes(),
  )}`;
}

/**
 * What a date-time input holds as an ISO time in UTC (undefined when empty); a value the browser could
 * not read is passed on as typed, so that the schema refuses it with its own message.
 */
export function isoOfLocal(value: string): string | undefined {
  if (value === '') return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? value : time.toISOString();
}

/** A date and time (the browser's own picker), in the operator's time zone, with its label and error. */
export function DateTimeField(props: {
  readonly label: string;
  readonly field: FieldBinding<string>;
  readonly description?: string;
}) {
  const { field } = props;
  return (
    <AriaTextField
      className="field"
      name={field.name}
      value={field.value}
      onChange={field.onChange}
      type="datetime-local"
      isInvalid={field.errorMessage !== undefined}
      validationBehavior="aria"
    >
      <Label>{props.label}</Label>
      <Input />
      {props.description !== undefined && <Text slot="description">{props.description}</Text>}
      <FieldError>{field.errorMessage}</FieldError>
    </AriaTextField>
  );
}
