import type { SvcCreatedClient, SvcSsoConnection } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { Dialect } from '../../storage/database.js';
import { createHostedTestApp, type HostedTestApp } from '../hosted-test-app.js';
import type { TestSvc } from '../test-svc.js';
import { samlTestKeys, type SamlTestKeyPair } from './saml-certificates.js';
import { startSamlPeer, type SamlPeer, type SamlPost } from './saml-peer.js';

let organizations = 0;

/**
 * What a test connection is created with (docs/reference/federation.md "SAML connections"); every field has a
 * default.
 */
export interface SsoConnectionSettings {
  readonly primaryDomain?: string | null;
  readonly autoProvisionUsers?: boolean;
  readonly autoLinkByEmail?: boolean;
}

/**
 * An enabled SSO connection of a new organization to `peer`, set up as an operator does: a draft, its SP
 * metadata given to the IdP, the IdP's metadata (listing `keys`) imported.
 */
export async function givenSsoConnection(
  t: TestSvc,
  peer: SamlPeer,
  keys?: readonly SamlTestKeyPair[],
  settings: SsoConnectionSettings = {},
  organizationPrimaryDomain: string | null = null,
): Promise<SvcSsoConnection> {
  organizations += 1;
  const organization = await t.svc.admin.createOrganizationAsync({
    name: `SAML Org ${organizations}`,
    primaryDomain: organizationPrimaryDomain,
  });
  const draft = await t.svc.admin.createSsoConnectionDraftAsync({
    organizationId: organization.id,
    displayName: 'Acme SSO',
    primaryDomain: 'acme.test',
    autoProvisionUsers: true,
    autoLinkByEmail: false,
    ...settings,
  });
  peer.trust(await t.svc.samlServiceProvider.metadata(draft.id));
  return t.svc.admin.importSsoMetadataAsync(draft.id, peer.metadata(keys));
}

/**
 * An active claim of the organization on `domain`, as a confirmed DNS proof leaves it (the DNS proof
 * itself is domain-claims' to test).
 */
export async function givenActiveDomainClaim(
  t: TestSvc,
  organizationId: string,
  domain: string,
): Promise<void> {
  const now = t.clock.now();
  await t.svc.database.db
    .insertInto('organizationDomains')
    .values({
      id: `dom_${organizationId}_${domain}`,
      organizationId,
      domain,
      status: 'active',
      verificationValue: 'test-value',
      createdAt: now,
      updatedAt: now,
      verifiedAt: now,
      revokedAt: null,
      lastCheckedAt: now,
      lastCheckResult: 'verified',
      lastCheckMessage: 'The record was found.',
      nextCheckAt: now + 86_400_000,
    })
    .execute();
}

/** What a SAML suite signs in with: the hosted app, the samlify IdP, a first-party web client. */
export interface SamlSuite {
  readonly h: HostedTestApp;
  readonly peer: SamlPeer;
  readonly web: SvcCreatedClient;
}

/** Makes a {@link SamlSuite} on `kind` before the suite's tests and hands it to `take`; closes it after. */
export function useSamlSuite(kind: Dialect, take: (suite: SamlSuite) => void): void {
  let made: SamlSuite | undefined;
  beforeAll(async () => {
    const [h, keys] = await Promise.all([createHostedTestApp(kind), samlTestKeys()]);
    const peer = await startSamlPeer(keys, h.t.clock);
    made = { h, peer, web: await h.given.client() };
    take(made);
  });
  afterAll(async () => {
    await made?.peer.close();
    await made?.h.close();
  });
}

/**
 * The IdP's cross-site form post of `post` to the ACS, as any browser sends it: it carries no cookie of
 * Svc's (SameSite=Lax), so it is the same whichever browser an attacker has post it.
 */
export function postToAcs(
  h: Pick<HostedTestApp, 'inject'>,
  peer: Pick<SamlPeer, 'origin'>,
  post: SamlPost,
): Promise<LightMyRequestResponse> {
  return h.inject({
    method: 'POST',
    url: new URL(post.acsUrl).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: peer.origin },
    payload: new URLSearchParams({
      SAMLResponse: post.samlResponse,
      RelayState: post.relayState ?? '',
    }).toString(),
  });
}
