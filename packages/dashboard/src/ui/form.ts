import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { ApiError, messageOf } from '../api/client.js';
import type { FieldBinding } from './fields.js';

type Values = Record<string, string | boolean>;

/** The form field a problem's path names: its first segment (`redirectUris.0` → `redirectUris`). */
function fieldOf(path: string | readonly PropertyKey[]): string {
  const first = typeof path === 'string' ? path.split('.')[0] : path[0];
  return first === undefined ? '' : String(first);
}

/**
 * A form checked by a `@svc/contract` schema, the one the API validates the same body with: `toBody`
 * makes the body from the form's values, the schema checks it before anything is sent, and a refusal of
 * the server (400 `details`) is shown beside the fields it names; anything else beside the buttons.
 */
export function useContractForm<V extends Values, S extends z.ZodType>(options: {
  readonly schema: S;
  readonly initial: V;
  readonly toBody: (values: V) => unknown;
  readonly submit: (body: z.output<S>, values: V) => Promise<unknown>;
}) {
  const [values, setValues] = useState<V>(options.initial);
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);

  const show = (problems: readonly { path: string | readonly PropertyKey[]; message: string }[]) => {
    const byField: Record<string, string> = {};
    const elsewhere: string[] = [];
    for (const problem of problems) {
      const name = fieldOf(problem.path);
      if (name in values) byField[name] ??= problem.message;
      else elsewhere.push(problem.message);
    }
    setErrors(byField);
    setFormError(elsewhere.length > 0 ? elsewhere.join(' ') : undefined);
  };

  const field = <K extends keyof V & string>(name: K): FieldBinding<V[K]> => ({
    name,
    value: values[name],
    onChange: (value) => {
      setValues((current) => ({ ...current, [name]: value }));
      setErrors(({ [name]: _cleared, ...rest }) => rest);
    },
    errorMessage: errors[name],
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = options.schema.safeParse(options.toBody(values));
    if (!checked.success) {
      show(checked.error.issues.map((issue) => ({ path: issue.path, message: issue.message })));
      return;
    }
    setPending(true);
    setErrors({});
    setFormError(undefined);
    options
      .submit(checked.data, values)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.details.length > 0) show(error.details);
        else setFormError(messageOf(error));
      })
      .finally(() => setPending(false));
  };

  return { values, setValues, field, onSubmit, formError, pending };
}

/** A text area's lines as a list (blank lines dropped), and back. */
export const lines = {
  parse: (text: string): string[] =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  format: (items: readonly string[]): string => items.join('\n'),
};
