import type { ReactNode } from 'react';
import {
  Checkbox,
  FieldError,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Radio,
  RadioGroup,
  Select,
  SelectValue,
  Switch,
  Text,
  TextArea,
  TextField as AriaTextField,
  Button as AriaButton,
} from 'react-aria-components';

/** What a form hands a field: its value, its change handler and the message of a refused value. */
export interface FieldBinding<V> {
  readonly name: string;
  readonly value: V;
  readonly onChange: (value: V) => void;
  readonly errorMessage: string | undefined;
}

interface Labelled {
  readonly label: string;
  readonly description?: ReactNode;
  readonly isRequired?: boolean;
  readonly isDisabled?: boolean;
}

/** A text input (or `multiline`, a text area) with its label, hint and the server's or schema's error. */
export function TextField(
  props: Labelled & {
    readonly field: FieldBinding<string>;
    /** `datetime-local`: the browser's date and time picker (ui/date-time.ts converts its value). */
    readonly type?: 'text' | 'email' | 'password' | 'url' | 'search' | 'datetime-local';
    readonly multiline?: boolean;
    readonly autoComplete?: string;
    readonly placeholder?: string;
  },
) {
  const { field } = props;
  return (
    <AriaTextField
      className="field"
      name={field.name}
      value={field.value}
      onChange={field.onChange}
      type={props.type ?? 'text'}
      isRequired={props.isRequired ?? false}
      isDisabled={props.isDisabled ?? false}
      isInvalid={field.errorMessage !== undefined}
      {...(props.autoComplete === undefined ? {} : { autoComplete: props.autoComplete })}
      validationBehavior="aria"
    >
      <Label>{props.label}</Label>
      {props.multiline === true ? (
        <TextArea rows={4} placeholder={props.placeholder ?? ''} />
      ) : (
        <Input placeholder={props.placeholder ?? ''} />
      )}
      {props.description !== undefined && <Text slot="description">{props.description}</Text>}
      <FieldError>{field.errorMessage}</FieldError>
    </AriaTextField>
  );
}

/** An on/off setting. */
export function SwitchField(props: Labelled & { readonly field: FieldBinding<boolean> }) {
  const { field } = props;
  return (
    <div className="field">
      <Switch
        name={field.name}
        isSelected={field.value}
        onChange={field.onChange}
        isDisabled={props.isDisabled ?? false}
        className="switch"
      >
        <span className="switch-track" aria-hidden="true" />
        {props.label}
      </Switch>
      {props.description !== undefined && <p className="hint">{props.description}</p>}
      {field.errorMessage !== undefined && <p className="field-error">{field.errorMessage}</p>}
    </div>
  );
}

/** A checkbox (one of several independent choices). */
export function CheckboxField(props: Labelled & { readonly field: FieldBinding<boolean> }) {
  const { field } = props;
  return (
    <Checkbox
      name={field.name}
      isSelected={field.value}
      onChange={field.onChange}
      isDisabled={props.isDisabled ?? false}
      className="checkbox"
    >
      <span className="checkbox-box" aria-hidden="true" />
      {props.label}
    </Checkbox>
  );
}

export interface Choice<V extends string> {
  readonly id: V;
  readonly label: string;
  readonly description?: string;
}

/** One of a few choices, all visible. */
export function RadioField<V extends string>(
  props: Labelled & { readonly field: FieldBinding<V>; readonly choices: readonly Choice<V>[] },
) {
  const { field } = props;
  return (
    <RadioGroup
      className="field radios"
      name={field.name}
      value={field.value}
      onChange={(value) => field.onChange(value as V)}
      isInvalid={field.errorMessage !== undefined}
      isDisabled={props.isDisabled ?? false}
      validationBehavior="aria"
    >
      <Label>{props.label}</Label>
      {props.choices.map((choice) => (
        <Radio key={choice.id} value={choice.id} className="radio">
          <span className="radio-dot" aria-hidden="true" />
          <span>
            {choice.label}
            {choice.description !== undefined && <span className="hint"> {choice.description}</span>}
          </span>
        </Radio>
      ))}
      {props.description !== undefined && <Text slot="description">{props.description}</Text>}
      <FieldError>{field.errorMessage}</FieldError>
    </RadioGroup>
  );
}

/** One of many choices, in a list box. */
export function SelectField<V extends string>(
  props: Labelled & { readonly field: FieldBinding<V>; readonly choices: readonly Choice<V>[] },
) {
  const { field } = props;
  return (
    <Select
      className="field"
      name={field.name}
      selectedKey={field.value}
      onSelectionChange={(key) => field.onChange(String(key) as V)}
      isInvalid={field.errorMessage !== undefined}
      isDisabled={props.isDisabled ?? false}
      validationBehavior="aria"
    >
      <Label>{props.label}</Label>
      <AriaButton className="select-button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </AriaButton>
      {props.description !== undefined && <Text slot="description">{props.description}</Text>}
      <FieldError>{field.errorMessage}</FieldError>
      <Popover className="popover">
        <ListBox className="listbox">
          {props.choices.map((choice) => (
            <ListBoxItem key={choice.id} id={choice.id} className="listbox-item" textValue={choice.label}>
              {choice.label}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}
