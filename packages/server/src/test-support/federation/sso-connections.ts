import type { SvcSsoConnection } from '@svc/contract';
import type { TestSvc } from '../test-svc.js';
import type { SamlTestKeyPair } from './saml-certificates.js';
import type { SamlPeer } from './saml-peer.js';

let organizations = 0;

/**
 * An enabled SSO connection of a new organization to `peer`, set up as an operator does: a draft, its SP
 * metadata given to the IdP, the IdP's metadata (listing `keys`) imported.
 */
export async function givenSsoConnection(
  t: TestSvc,
  peer: SamlPeer,
  keys?: readonly SamlTestKeyPair[],
): Promise<SvcSsoConnection> {
  organizations += 1;
  const organization = await t.svc.admin.createOrganizationAsync({ name: `SAML Org ${organizations}` });
  const draft = await t.svc.admin.createSsoConnectionDraftAsync({
    organizationId: organization.id,
    displayName: 'Acme SSO',
    primaryDomain: 'acme.test',
    autoProvisionUsers: true,
    autoLinkByEmail: false,
  });
  peer.trust(await t.svc.samlServiceProvider.metadata(draft.id));
  return t.svc.admin.importSsoMetadataAsync(draft.id, peer.metadata(keys));
}
