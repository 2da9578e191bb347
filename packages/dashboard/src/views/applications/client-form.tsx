import type { SvcClient, TokenEndpointAuthMethod } from '@svc/contract';
import type { ReactNode } from 'react';
import { SelectField, SwitchField, TextField, type FieldBinding } from '../../ui/fields.js';
import { lines } from '../../ui/form.js';

/** A client's settings as the create and edit forms hold them (lists as text, one entry a line). */
export interface ClientFormValues {
  [field: string]: string | boolean;
  name: string;
  audience: string;
  redirectUris: string;
  postLogoutRedirectUris: string;
  allowedScopes: string;
  allowedResources: string;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  isFirstParty: boolean;
  allowDeviceAuthorization: boolean;
  allowClientCredentials: boolean;
}

export type ClientField = keyof ClientFormValues & string;

/** Scopes as typed: separated by spaces or lines, as OAuth writes them. */
export const scopeWords = {
  parse: (text: string): string[] => text.split(/\s+/).filter((scope) => scope !== ''),
  format: (scopes: readonly string[]): string => scopes.join(' '),
};

export function clientFormValues(client: SvcClient): ClientFormValues {
  return {
    name: client.name,
    audience: client.audience,
    redirectUris: lines.format(client.redirectUris),
    postLogoutRedirectUris: lines.format(client.postLogoutRedirectUris),
    allowedScopes: scopeWords.format(client.allowedScopes),
    allowedResources: lines.format(client.allowedResources),
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
    isFirstParty: client.isFirstParty,
    allowDeviceAuthorization: client.allowDeviceAuthorization,
    allowClientCredentials: client.allowClientCredentials,
  };
}

/** The body fields of the form's values (the create and the update bodies share them). */
export function clientBodyFields(values: ClientFormValues) {
  return {
    name: values.name,
    audience: values.audience,
    redirectUris: lines.parse(values.redirectUris),
    postLogoutRedirectUris: lines.parse(values.postLogoutRedirectUris),
    allowedScopes: scopeWords.parse(values.allowedScopes),
    allowedResources: lines.parse(values.allowedResources),
    tokenEndpointAuthMethod: values.tokenEndpointAuthMethod,
    isFirstParty: values.isFirstParty,
    allowDeviceAuthorization: values.allowDeviceAuthorization,
    allowClientCredentials: values.allowClientCredentials,
  };
}

const SECRET_METHODS = [
  {
    id: 'client_secret_basic',
    label: 'Secret in HTTP Basic (client_secret_basic)',
  },
  { id: 'client_secret_post', label: 'Secret in the form body (client_secret_post)' },
] as const;

const AUTH_METHODS = [
  { id: 'none', label: 'None: a public client (PKCE, no secret)' },
  ...SECRET_METHODS,
] as const;

/**
 * The fields of a client's settings. `locked` fields are shown but not editable (what a metadata
 * document decides, with `lockedReason`); `editing` keeps the auth method to the secret methods for a
 * confidential client and fixed for a public one, as the API allows.
 */
export function ClientFields(props: {
  readonly field: <K extends ClientField>(name: K) => FieldBinding<ClientFormValues[K]>;
  readonly values: ClientFormValues;
  readonly editing: boolean;
  readonly redirectExample?: string | null;
  readonly locked?: ReadonlySet<string>;
  readonly lockedReason?: ReactNode;
}) {
  const { field, values } = props;
  const locked = (name: ClientField) => props.locked?.has(name) ?? false;
  const why = (name: ClientField, hint: ReactNode) => (locked(name) ? props.lockedReason : hint);
  const isPublic = values.tokenEndpointAuthMethod === 'none';
  return (
    <>
      <TextField
        label="Name"
        field={field('name')}
        isRequired
        isDisabled={locked('name')}
        description={why('name', 'What users see on the sign-in and consent pages.')}
      />
      <TextField
        label="Audience"
        type="url"
        field={field('audience')}
        isRequired
        description="The API its access tokens are for (their aud), such as https://api.example.com."
      />
      <TextField
        label="Redirect URIs"
        multiline
        field={field('redirectUris')}
        isDisabled={locked('redirectUris')}
        description={why(
          'redirectUris',
          <>
            One a line, matched exactly at /authorize.
            {props.redirectExample !== undefined &&
              props.redirectExample !== null &&
              ` For example ${props.redirectExample}.`}
          </>,
        )}
      />
      <TextField
        label="Post-logout redirect URIs"
        multiline
        field={field('postLogoutRedirectUris')}
        description="One a line: where the logout endpoint may send the browser afterwards."
      />
      <TextField
        label="Allowed scopes"
        field={field('allowedScopes')}
        isDisabled={locked('allowedScopes')}
        description={why(
          'allowedScopes',
          'Separated by spaces. The app may ask for these and no others; offline_access only if listed.',
        )}
      />
      <TextField
        label="Allowed resources"
        multiline
        field={field('allowedResources')}
        description="One a line: further APIs (RFC 8707 resource) it may ask tokens for, besides its audience."
      />
      {props.editing && isPublic ? (
        <p className="hint">
          Token endpoint authentication: none (a public client). A public client cannot become confidential:
          register a new client for that.
        </p>
      ) : (
        <SelectField<TokenEndpointAuthMethod>
          label="Token endpoint authentication"
          field={field('tokenEndpointAuthMethod')}
          choices={props.editing ? SECRET_METHODS : AUTH_METHODS}
          description={
            props.editing
              ? 'Either secret method keeps the secret; a confidential client cannot become public.'
              : 'A confidential client gets a secret, shown once after it is created.'
          }
        />
      )}
      <fieldset className="choices">
        <legend>Grants and trust</legend>
        <SwitchField
          label="First party"
          field={field('isFirstParty')}
          description="Your own application: no consent screen, and the first-party sign-in helpers."
        />
        <SwitchField
          label="Device authorization"
          field={field('allowDeviceAuthorization')}
          isDisabled={locked('allowDeviceAuthorization')}
          description={why('allowDeviceAuthorization', 'The device grant, for a CLI or a TV (RFC 8628).')}
        />
        <SwitchField
          label="Client credentials"
          field={field('allowClientCredentials')}
          isDisabled={isPublic}
          description={
            isPublic
              ? 'Only a confidential client may use the client credentials grant.'
              : 'Tokens for the client itself, with no user (machine to machine).'
          }
        />
      </fieldset>
    </>
  );
}
