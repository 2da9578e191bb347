import { svcClientSchema, type SvcOidcConnection, type SvcSsoConnection } from '@svc/contract';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { withQuery } from '../../../api/client.js';
import { useRecord } from '../../../data/queries.js';
import { Button } from '../../../ui/button.js';
import { ModalDialog } from '../../../ui/dialog.js';
import { TextField } from '../../../ui/fields.js';
import type { Picked } from '../../../ui/record-picker.js';
import { clientPath } from '../../applications/client-paths.js';
import { ClientPicker } from '../../pickers.js';
import { AUTH_BASE_URL } from './sso-paths.js';

export type TriedConnection =
  | { readonly kind: 'saml'; readonly connection: SvcSsoConnection }
  | { readonly kind: 'oidc'; readonly connection: SvcOidcConnection };

/** 256 random bits, base64url: an OAuth state, or a PKCE challenge of 43 characters. */
function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/**
 * The application's own sign-in, started as the application starts it: `prompt=login`, so that the
 * browser's Svc session (this operator's) is not reused, and a PKCE challenge whose verifier nobody
 * keeps, so that the code it ends with can never be redeemed.
 */
function authorizeUrl(clientId: string, redirectUri: string, loginHint: string): string {
  return withQuery(`${AUTH_BASE_URL}/authorize`, {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    state: randomToken(),
    code_challenge: randomToken(),
    code_challenge_method: 'S256',
    prompt: 'login',
    login_hint: loginHint,
  });
}

function StartLink(props: { readonly application: Picked; readonly loginHint: string }) {
  const client = useRecord('auth', clientPath(props.application.id), svcClientSchema);
  const redirectUri = client.data?.redirectUris[0];
  if (client.data === undefined) return <p className="muted">Reading {props.application.label}…</p>;
  if (redirectUri === undefined) {
    return (
      <p className="error" role="alert">
        {props.application.label} has no redirect URI, so nobody signs in to it in a browser: choose another
        application.
      </p>
    );
  }
  return (
    <p>
      <a
        className="button button-primary"
        href={authorizeUrl(client.data.clientId, redirectUri, props.loginHint)}
        target="_blank"
        rel="noreferrer"
      >
        Open the sign-in of {props.application.label}
      </a>
    </p>
  );
}

/**
 * "Try the sign-in": there is no test mode for an operator, so the console opens a real sign-in to an
 * application in a new tab, where a SAML connection is reached by an address of its domains and a provider
 * by its button. It ends at the application's redirect URI with a code nobody redeems; what happened on
 * the way is in the audit log.
 */
export function TrySignIn(props: { readonly connection: TriedConnection }) {
  const { kind, connection } = props.connection;
  const [application, setApplication] = useState<Picked | null>(null);
  const [email, setEmail] = useState(
    kind === 'saml' && connection.primaryDomain !== null ? `someone@${connection.primaryDomain}` : '',
  );
  const name = connection.displayName;
  return (
    <ModalDialog title={`Try the sign-in through ${name}`} trigger={<Button>Try the sign-in</Button>}>
      {(close) => (
        <>
          <div className="dialog-body">
            {!connection.enabled && (
              <p className="notice notice-warning" role="note">
                {name} is disabled: the sign-in will not offer it until it is enabled.
              </p>
            )}
            <p>
              {kind === 'saml'
                ? `The sign-in page asks for an email address: one whose domain leads to ${name} (its primary domain, or a verified domain of the organization) takes the browser to the IdP.`
                : `The sign-in page offers "Continue with ${name}", as it offers every enabled provider.`}{' '}
              It ends at the application&apos;s redirect URI with a code that cannot be redeemed. Your console
              session is not touched, but the browser&apos;s sign-in session becomes the one you sign in as:
              open it in a private window to keep yours.
            </p>
            <ClientPicker
              label="Application"
              value={application}
              onChange={setApplication}
              query={{ active: true }}
              description="The sign-in of which application; its first redirect URI is used."
            />
            {kind === 'saml' && (
              <TextField
                label="Email address"
                type="email"
                field={{ name: 'email', value: email, onChange: setEmail, errorMessage: undefined }}
                description="Filled in on the sign-in page."
              />
            )}
            {application !== null && (
              <StartLink application={application} loginHint={kind === 'saml' ? email : ''} />
            )}
            <p className="hint">
              What happened is in the{' '}
              <Link to="/audit" search={{ kind: kind === 'saml' ? 'saml.*' : 'oidc.*' }}>
                audit log
              </Link>
              : the answer accepted or refused, and why.
            </p>
          </div>
          <div className="dialog-actions">
            <Button tone="quiet" onPress={close}>
              Close
            </Button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
