import {
  OIDC_MAPPED_CLAIMS,
  type OidcClientAuthMethod,
  type OidcMappedClaim,
  type OidcProviderType,
} from '@svc/contract';
import { useEffect, useState, type ReactNode } from 'react';
import { RadioField, SelectField, SwitchField, TextField, type FieldBinding } from '../../../ui/fields.js';
import {
  claimField,
  PROVIDER_FIELDS,
  type OidcField,
  type OidcFormValues,
  type UserInfoChoice,
} from './oidc-form-values.js';
import { OIDC_CALLBACK_URL } from './sso-paths.js';

/** How each provider type is named to operators. */
export const PROVIDER_LABELS: Readonly<Record<OidcProviderType, string>> = {
  Google: 'Google',
  Microsoft: 'Microsoft (Entra ID)',
  Apple: 'Sign in with Apple',
  GitHub: 'GitHub',
  Custom: 'Any OpenID provider',
};

export const CLAIM_LABELS: Readonly<Record<OidcMappedClaim, string>> = {
  subject: 'Subject',
  email: 'Email',
  emailVerified: 'Email verified',
  displayName: 'Display name',
  firstName: 'First name',
  lastName: 'Last name',
  preferredUsername: 'Preferred username',
};

/** OpenID Connect Core's claim names, what a mapping left empty reads (Core 1.0 §5.1). */
const STANDARD_CLAIMS: Readonly<Record<OidcMappedClaim, string>> = {
  subject: 'sub',
  email: 'email',
  emailVerified: 'email_verified',
  displayName: 'name',
  firstName: 'given_name',
  lastName: 'family_name',
  preferredUsername: 'preferred_username',
};

const AUTH_METHODS: readonly { readonly id: OidcClientAuthMethod; readonly label: string }[] = [
  { id: 'ClientSecretPost', label: 'Secret in the form body (client_secret_post)' },
  { id: 'ClientSecretBasic', label: 'Secret in HTTP Basic (client_secret_basic)' },
];

const USER_INFO: readonly { readonly id: UserInfoChoice; readonly label: string }[] = [
  { id: 'default', label: "The provider's default (yes)" },
  { id: 'yes', label: 'Yes: read claims from UserInfo too' },
  { id: 'no', label: 'No: the ID token only' },
];

type Bind = <K extends OidcField>(name: K) => FieldBinding<OidcFormValues[K]>;

/** Whether any of `names` holds a value or a refusal: its group is then shown unfolded. */
const anySet = (field: Bind, names: readonly OidcField[]) =>
  names.some((name) => {
    const binding = field(name);
    return (binding.value !== '' && binding.value !== false) || binding.errorMessage !== undefined;
  });

/**
 * Optional settings, folded until the operator opens them, or one of them is set or refused (so that a
 * refusal beside a field is never hidden).
 */
function Folded(props: { readonly title: string; readonly force: boolean; readonly children: ReactNode }) {
  const [open, setOpen] = useState(props.force);
  useEffect(() => {
    if (props.force) setOpen(true);
  }, [props.force]);
  return (
    <details className="fieldset" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{props.title}</summary>
      {props.children}
    </details>
  );
}

const ENDPOINT_FIELDS: readonly OidcField[] = [
  'discoveryUrl',
  'authorizationEndpoint',
  'tokenEndpoint',
  'userInfoEndpoint',
];

function EndpointFields(props: { readonly field: Bind; readonly values: OidcFormValues }) {
  const { field, values } = props;
  const takes = PROVIDER_FIELDS[values.providerType];
  const custom = values.providerType === 'Custom';
  const url = (name: OidcField, label: string, description?: string) =>
    takes.has(name) && (
      <TextField
        label={label}
        type="url"
        field={field(name) as FieldBinding<string>}
        isRequired={custom && name !== 'userInfoEndpoint'}
        {...(description === undefined ? {} : { description })}
      />
    );
  if (custom && values.useDiscovery) {
    return url('discoveryUrl', 'Discovery URL', 'Its /.well-known/openid-configuration document.');
  }
  if (custom) {
    return (
      <fieldset className="fieldset">
        <legend>Endpoints</legend>
        {url('issuer', 'Issuer')}
        {url('authorizationEndpoint', 'Authorization endpoint')}
        {url('tokenEndpoint', 'Token endpoint')}
        {url('jwksUri', 'JWKS URI')}
        {url('userInfoEndpoint', 'UserInfo endpoint', 'Optional.')}
      </fieldset>
    );
  }
  const overrides = ENDPOINT_FIELDS.filter((name) => takes.has(name));
  return (
    <Folded title="Endpoint overrides (optional)" force={anySet(field, overrides)}>
      <p className="hint">
        For GitHub Enterprise Server, sovereign clouds or a test provider; empty uses the provider&apos;s own.
      </p>
      {url('discoveryUrl', 'Discovery URL')}
      {url('authorizationEndpoint', 'Authorization endpoint')}
      {url('tokenEndpoint', 'Token endpoint')}
      {url('userInfoEndpoint', 'UserInfo endpoint')}
    </Folded>
  );
}

/**
 * The claims a sign-in reads, each from the claim named here; empty reads the default (the placeholder).
 * Apple's and GitHub's are fixed, so they have none to set.
 */
function ClaimMappingFields(props: {
  readonly field: Bind;
  readonly defaults?: Readonly<Record<OidcMappedClaim, string | null>>;
}) {
  const names = OIDC_MAPPED_CLAIMS.map(claimField);
  return (
    <Folded title="Claim mapping (optional)" force={anySet(props.field, names)}>
      <p className="hint">
        The claim of the ID token or UserInfo each field is read from. Empty reads the default shown.
      </p>
      <div className="settings-grid">
        {OIDC_MAPPED_CLAIMS.map((claim) => (
          <TextField
            key={claim}
            label={CLAIM_LABELS[claim]}
            field={props.field(claimField(claim))}
            placeholder={props.defaults?.[claim] ?? STANDARD_CLAIMS[claim]}
            autoComplete="off"
          />
        ))}
      </div>
    </Folded>
  );
}

/**
 * The fields of a provider connection, those its type takes (the server checks the type's rules and
 * names each refused field). `editing`: the type is fixed, and an empty secret keeps the stored one.
 */
export function OidcFields(props: {
  readonly field: Bind;
  readonly values: OidcFormValues;
  readonly editing: boolean;
  readonly secretSet?: boolean;
  readonly claimDefaults?: Readonly<Record<OidcMappedClaim, string | null>>;
}) {
  const { field, values, editing } = props;
  const type = values.providerType;
  const takes = PROVIDER_FIELDS[type];
  const keepHint = editing && props.secretSet === true ? ' Leave it empty to keep the one set.' : '';
  return (
    <>
      <TextField
        label="Display name"
        field={field('displayName')}
        isRequired={type === 'Custom'}
        description={
          type === 'Custom' ? 'The button says "Continue with" this.' : `Optional: "${type}" when empty.`
        }
        autoComplete="off"
      />
      <TextField
        label={type === 'Apple' ? 'Services ID' : 'Client ID'}
        field={field('clientId')}
        isRequired
        autoComplete="off"
        description="The OAuth client the provider registered for Svc."
      />
      {takes.has('clientSecret') && (
        <TextField
          label="Client secret"
          type="password"
          field={field('clientSecret')}
          isRequired={!editing}
          autoComplete="new-password"
          description={`Sealed with the master key; never shown again.${keepHint}`}
        />
      )}
      {type === 'Apple' && (
        <>
          <TextField label="Team ID" field={field('appleTeamId')} isRequired autoComplete="off" />
          <TextField label="Key ID" field={field('appleKeyId')} isRequired autoComplete="off" />
          <TextField
            label="Private key"
            multiline
            field={field('applePrivateKeyPem')}
            isRequired={!editing}
            placeholder="-----BEGIN PRIVATE KEY-----"
            description={`The .p8 key Apple gave (PKCS#8, EC P-256); Svc signs its client secrets with it.${keepHint}`}
          />
        </>
      )}
      {takes.has('microsoftTenant') && (
        <TextField
          label="Tenant"
          field={field('microsoftTenant')}
          placeholder="common"
          description="A tenant ID or domain, or common, organizations, consumers. Empty is common."
          autoComplete="off"
        />
      )}
      {type === 'Custom' && (
        <SwitchField
          label="Read the provider's discovery document"
          field={field('useDiscovery')}
          description="Off: give its endpoints yourself."
        />
      )}
      <EndpointFields field={field} values={values} />
      <TextField
        label="Callback URIs"
        multiline
        field={field('allowedCallbackUris')}
        isRequired
        description={`One a line; register the same at the provider. Svc's sign-in comes back to ${OIDC_CALLBACK_URL}.`}
      />
      <TextField
        label="Scopes"
        field={field('scopes')}
        description="Separated by spaces; empty asks for the provider's defaults. OpenID providers need openid."
        autoComplete="off"
      />
      {takes.has('clientAuthMethod') && (
        <SelectField<OidcClientAuthMethod>
          label="Token endpoint authentication"
          field={field('clientAuthMethod')}
          choices={AUTH_METHODS}
        />
      )}
      {takes.has('useUserInfo') && (
        <RadioField<UserInfoChoice> label="UserInfo" field={field('useUserInfo')} choices={USER_INFO} />
      )}
      {takes.has('claimSubject') ? (
        <ClaimMappingFields
          field={field}
          {...(props.claimDefaults === undefined ? {} : { defaults: props.claimDefaults })}
        />
      ) : (
        <p className="hint">{type}&apos;s claim mapping is fixed: Svc reads what its sign-in always sends.</p>
      )}
      {!editing && (
        <SwitchField
          label="Enabled"
          field={field('enabled')}
          description="Offered on every sign-in page at once."
        />
      )}
    </>
  );
}
