import { DEFAULT_CLIENT_SCOPES, type CreateClientInput } from '@svc/contract';

/**
 * The kinds of application the console creates, as presets of `POST /clients` (the server has no
 * templates: each is the create body's defaults changed where the kind needs it). Every field stays
 * editable after the choice. docs/reference/operator-api.md "The bundled console" says why each default is
 * what it is.
 */
export type ClientTemplateId =
  'browser' | 'web' | 'native' | 'cli' | 'service' | 'partner-web' | 'partner-native';

type TemplateDefaults = Pick<
  CreateClientInput,
  | 'isFirstParty'
  | 'tokenEndpointAuthMethod'
  | 'allowDeviceAuthorization'
  | 'allowClientCredentials'
  | 'allowedScopes'
>;

export interface ClientTemplate {
  readonly id: ClientTemplateId;
  readonly label: string;
  /** What the preset sets, in the operator's words. */
  readonly summary: string;
  /** Examples of the redirect URIs such an application registers; null when it has none. */
  readonly redirectExample: string | null;
  readonly defaults: TemplateDefaults;
}

const signIn = [...DEFAULT_CLIENT_SCOPES];

export const CLIENT_TEMPLATES: readonly ClientTemplate[] = [
  {
    id: 'browser',
    label: 'Browser app (single-page)',
    summary:
      'Your own app running in the browser. Public (no secret: a browser cannot keep one; PKCE protects the code), first party (no consent screen), OpenID sign-in scopes.',
    redirectExample: 'https://app.example.com/callback',
    defaults: {
      isFirstParty: true,
      tokenEndpointAuthMethod: 'none',
      allowDeviceAuthorization: false,
      allowClientCredentials: false,
      allowedScopes: signIn,
    },
  },
  {
    id: 'web',
    label: 'Web server app',
    summary:
      'Your own app with a backend that redeems the code. Confidential (a secret sent with HTTP Basic, shown once), first party, OpenID sign-in scopes.',
    redirectExample: 'https://app.example.com/auth/callback',
    defaults: {
      isFirstParty: true,
      tokenEndpointAuthMethod: 'client_secret_basic',
      allowDeviceAuthorization: false,
      allowClientCredentials: false,
      allowedScopes: signIn,
    },
  },
  {
    id: 'native',
    label: 'Native or mobile app',
    summary:
      'Your own desktop or mobile app. Public (a secret in an installed app is not secret), first party; it registers a private-use scheme or a loopback address with its port.',
    redirectExample: 'com.example.app:/callback or http://127.0.0.1:8400/callback',
    defaults: {
      isFirstParty: true,
      tokenEndpointAuthMethod: 'none',
      allowDeviceAuthorization: false,
      allowClientCredentials: false,
      allowedScopes: signIn,
    },
  },
  {
    id: 'cli',
    label: 'Command-line tool or device',
    summary:
      'Your own CLI, TV or other device without a good browser. Public, first party, the device grant on (the user approves on another screen); no redirect URI is needed.',
    redirectExample: null,
    defaults: {
      isFirstParty: true,
      tokenEndpointAuthMethod: 'none',
      allowDeviceAuthorization: true,
      allowClientCredentials: false,
      allowedScopes: signIn,
    },
  },
  {
    id: 'service',
    label: 'Machine to machine',
    summary:
      'A backend service calling your API as itself, with no user. Confidential, the client credentials grant on, no redirect URI, no sign-in scopes: add the API scopes it may ask for (openid and offline_access are never granted to it).',
    redirectExample: null,
    defaults: {
      isFirstParty: false,
      tokenEndpointAuthMethod: 'client_secret_basic',
      allowDeviceAuthorization: false,
      allowClientCredentials: true,
      allowedScopes: [],
    },
  },
  {
    id: 'partner-web',
    label: "A partner's web server app",
    summary:
      'Somebody else’s app with a backend. Confidential, third party: users are asked to consent to its scopes, and it gets none of the first-party sign-in helpers.',
    redirectExample: 'https://partner.example.net/callback',
    defaults: {
      isFirstParty: false,
      tokenEndpointAuthMethod: 'client_secret_basic',
      allowDeviceAuthorization: false,
      allowClientCredentials: false,
      allowedScopes: signIn,
    },
  },
  {
    id: 'partner-native',
    label: "A partner's browser or native app",
    summary:
      'Somebody else’s app without a backend. Public, third party: users are asked to consent, and it gets none of the first-party sign-in helpers.',
    redirectExample: 'https://partner.example.net/callback',
    defaults: {
      isFirstParty: false,
      tokenEndpointAuthMethod: 'none',
      allowDeviceAuthorization: false,
      allowClientCredentials: false,
      allowedScopes: signIn,
    },
  },
];

export function clientTemplate(id: ClientTemplateId): ClientTemplate {
  return CLIENT_TEMPLATES.find((template) => template.id === id) ?? CLIENT_TEMPLATES[0]!;
}
