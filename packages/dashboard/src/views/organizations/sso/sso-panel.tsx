import type { SvcOrganization } from '@svc/contract';
import { OidcConnectionsPanel } from './oidc-connections.js';
import { RealmPreview } from './realm-preview.js';
import { SamlConnectionsPanel } from './saml-connections.js';

/**
 * The organization's single sign-on: where an address signs in, its SAML connections and its provider
 * connections. Its domains and the customer's setup links have tabs of their own.
 */
export function SsoPanel(props: { readonly organization: SvcOrganization }) {
  return (
    <>
      <RealmPreview organization={props.organization} />
      <SamlConnectionsPanel organization={props.organization} />
      <OidcConnectionsPanel organization={props.organization} />
    </>
  );
}
