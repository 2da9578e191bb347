import { OPEN_ACCESS, type ClientRecord, type ClientRepository } from '../directory/repository.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';

/** The client_id of the built-in first-party dashboard client. */
export const DASHBOARD_CLIENT_ID = 'svc-dashboard';

/**
 * Makes sure the built-in dashboard client exists, first party and public (PKCE, exchanged in process),
 * with the dashboard's callback as its one redirect URI and no scopes (the sign-in only proves who the
 * operator is): created at the first dashboard sign-in, so a host that never opens the dashboards has no
 * such client; its redirect URI set again when the PublicOrigin or the dashboard base moved. Anything
 * else an operator changed (a deactivation, a narrower access mode) is kept: theirs to close the
 * dashboards with. Answers the client as it is now.
 */
export async function ensureDashboardClient(
  clients: Pick<ClientRepository, 'findByClientId' | 'insertIfClientIdFree' | 'update'>,
  site: { readonly callback: string; readonly audience: string },
  deps: { readonly clock: Clock; readonly ids: Ids },
): Promise<ClientRecord | undefined> {
  const existing = await clients.findByClientId(DASHBOARD_CLIENT_ID);
  const now = deps.clock.now();
  if (existing !== undefined) {
    if (existing.redirectUris.length === 1 && existing.redirectUris[0] === site.callback) return existing;
    return clients.update(DASHBOARD_CLIENT_ID, { redirectUris: [site.callback] }, now);
  }
  const record: ClientRecord = {
    id: deps.ids.id('cli'),
    clientId: DASHBOARD_CLIENT_ID,
    name: 'Svc dashboards',
    audience: site.audience,
    redirectUris: [site.callback],
    postLogoutRedirectUris: [],
    isFirstParty: true,
    allowedScopes: [],
    allowedResources: [],
    tokenEndpointAuthMethod: 'none',
    clientSecretHash: null,
    allowDeviceAuthorization: false,
    allowClientCredentials: false,
    active: true,
    access: OPEN_ACCESS,
    createdAt: now,
    updatedAt: now,
    registration: null,
  };
  // Another node at the same moment may win the insert: then its record stands.
  await clients.insertIfClientIdFree(record);
  return clients.findByClientId(DASHBOARD_CLIENT_ID);
}
