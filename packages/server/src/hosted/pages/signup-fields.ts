import type { StepError } from '../../signin/flow/authorize-outcomes.js';
import {
  formError,
  hiddenFormFields,
  HOSTED_FIELDS,
  invalidAttributes,
  type HostedFormContext,
} from '../form.js';
import { html, type SafeHtml } from '../../http/pages/html.js';
import { continueTo } from './continue-to.js';

/** The field each signup error is about, so that the page marks that field (and only it) invalid. */
const ERROR_FIELDS: Readonly<Partial<Record<StepError, string>>> = Object.freeze({
  display_name_required: HOSTED_FIELDS.displayName,
  display_name_invalid: HOSTED_FIELDS.displayName,
  email_required: HOSTED_FIELDS.email,
  email_invalid: HOSTED_FIELDS.email,
  email_not_ascii: HOSTED_FIELDS.email,
  email_taken: HOSTED_FIELDS.email,
  password_too_short: HOSTED_FIELDS.password,
  password_too_long: HOSTED_FIELDS.password,
  organization_name_invalid: HOSTED_FIELDS.organizationName,
  phone_required: HOSTED_FIELDS.phoneNumber,
  phone_invalid: HOSTED_FIELDS.phoneNumber,
  phone_country_refused: HOSTED_FIELDS.phoneNumber,
  sms_unavailable: HOSTED_FIELDS.phoneNumber,
});

/** The form field an inline error points at, if it points at one. */
export function invalidFieldOf(error: StepError | undefined): string | undefined {
  return error === undefined ? undefined : ERROR_FIELDS[error];
}

/** One labelled input of the signup forms. */
export interface SignupFieldInput {
  /** The form field name, also the input's id. */
  readonly name: string;
  readonly label: string;
  readonly type: 'text' | 'email' | 'password' | 'tel';
  readonly autocomplete: string;
  readonly maxlength: number;
  readonly minlength?: number;
  readonly inputmode?: 'email' | 'tel';
  readonly required: boolean;
  readonly autofocus?: boolean;
  /** Never given for a password: a password is never sent back to the browser. */
  readonly value?: string;
  /** The page's inline error when it is about this field (ties the field to it for screen readers). */
  readonly error?: string | undefined;
}

/** A label and its input, marked invalid when the inline error is about it. */
export function signupField(field: SignupFieldInput): SafeHtml {
  return html`<div class="field">
    <label for="${field.name}">${field.label}</label>
    <input
      id="${field.name}"
      name="${field.name}"
      type="${field.type}"
      autocomplete="${field.autocomplete}"
      maxlength="${field.maxlength}"
      ${field.minlength !== undefined && html` minlength="${field.minlength}"`}${field.inputmode !== undefined && html` inputmode="${field.inputmode}"`}${field.type === 'email' && html` autocapitalize="none" spellcheck="false"`}${field.required && html` required`}${field.autofocus === true && html` autofocus`}${field.value !== undefined && html` value="${field.value}"`}${invalidAttributes(field.error)}
    />
  </div>`;
}

/** What both signup pages render their form from. */
export interface SignupFormInput extends HostedFormContext {
  readonly clientName?: string;
  /** What the user typed before an error (a password is never sent back). */
  readonly displayName?: string;
  readonly organizationName?: string;
  readonly error?: string;
  /** The field the error is about (a HOSTED_FIELDS name). */
  readonly invalidField?: string;
}

/** The form's inline error when it is about the field `name`. */
export function errorAbout(input: SignupFormInput, name: string): string | undefined {
  return input.invalidField === name ? input.error : undefined;
}

/**
 * The form of both signup pages: the name, the fields of the way the account signs in (`fields`), an
 * optional organization the new account will own, and the submit button; posts to `action`.
 */
export function signupForm(
  input: SignupFormInput,
  form: { readonly action: string; readonly fields: SafeHtml; readonly submit: string },
): SafeHtml {
  return html`${continueTo(input.clientName)}
    <form method="post" action="${input.authBase}${form.action}">
      ${hiddenFormFields(input)} ${formError(input.error)}
      ${signupField({
        name: HOSTED_FIELDS.displayName,
        label: 'Name',
        type: 'text',
        autocomplete: 'name',
        maxlength: 200,
        required: true,
        autofocus: true,
        value: input.displayName ?? '',
        error: errorAbout(input, HOSTED_FIELDS.displayName),
      })}
      ${form.fields}
      ${signupField({
        name: HOSTED_FIELDS.organizationName,
        label: 'Organization name (optional)',
        type: 'text',
        autocomplete: 'organization',
        maxlength: 200,
        required: false,
        value: input.organizationName ?? '',
        error: errorAbout(input, HOSTED_FIELDS.organizationName),
      })}
      <button class="button button-primary" type="submit">${form.submit}</button>
    </form>`;
}
