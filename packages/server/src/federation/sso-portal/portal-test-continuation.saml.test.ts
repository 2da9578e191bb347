import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeAboveStorage } from '../../test-support/databases.js';
import { samlTestKeys, type SamlTestKeys } from '../../test-support/federation/saml-certificates.js';
import { startSamlPeer, type SamlPeer } from '../../test-support/federation/saml-peer.js';
import { givenSsoConnection } from '../../test-support/federation/sso-connections.js';
import { createTestSvc, TEST_ORIGIN, type TestSvc } from '../../test-support/test-svc.js';
import { continuationKind } from '../saml/continuations.js';
import { SamlError } from '../saml/errors.js';
import type { PortalActor } from './portal-setup.js';

const ADA = {
  email: 'ada@acme.test',
  nameId: 'ada-7',
  nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  attributes: { email: ['ada@acme.test'], groups: ['admins', 'eng'] },
};

/**
 * The portal's test sign-in end to end with the samlify IdP peer: the portal starts it, the peer
 * answers, Svc consumes the answer, and the `portal-test` handler records it for the portal session
 * that started it (never signing anyone in) and sends the browser back to the portal.
 */
describeAboveStorage('portal-test SAML continuation', (kind) => {
  let t: TestSvc;
  let keys: SamlTestKeys;
  let peer: SamlPeer;

  beforeAll(async () => {
    [t, keys] = await Promise.all([createTestSvc(kind), samlTestKeys()]);
    peer = await startSamlPeer(keys, t.clock);
  });
  afterAll(async () => {
    await peer.close();
    await t.close();
  });

  const portalSession = async (organizationId: string): Promise<PortalActor & { linkId: string }> => {
    const link = await t.svc.admin.createSsoPortalLinkAsync(organizationId);
    const token = new URL(link.url).searchParams.get('token') ?? '';
    const started = await t.svc.ssoPortal.sessions.exchange(token, '198.51.100.7');
    if (started === undefined) throw new Error('the link was refused');
    return { session: started.session, ipAddress: '198.51.100.7', linkId: link.id };
  };
  /** The session as the next request of its browser reads it. */
  const reread = async (actor: PortalActor): Promise<PortalActor> => {
    const session = await t.svc.ssoPortal.sessions.findById(actor.session.id);
    if (session === undefined) throw new Error('the session ended');
    return { ...actor, session };
  };
  /** The portal's Test sign-in button, the IdP's sign-in, and the ACS route's consume. */
  const testSignIn = async (actor: PortalActor, connectionId: string) => {
    const redirectUrl = await t.svc.ssoPortal.setup.startTest(actor, connectionId);
    const post = await peer.signIn(redirectUrl, ADA);
    return t.svc.samlServiceProvider.consume(connectionId, post.samlResponse, post.relayState);
  };

  it('records what the IdP asserted for the portal session and sends the browser back to the portal', async () => {
    const connection = await givenSsoConnection(t, peer);
    const actor = await portalSession(connection.organizationId);
    const signIn = await testSignIn(actor, connection.id);
    expect(signIn.continuation).toEqual({ kind: 'portal-test', portalSessionId: actor.session.id });
    // The app factory's list the ACS route dispatches to holds one handler of the sign-in's kind.
    const handlers = t.svc.samlContinuationHandlers.filter((h) => h.kind === continuationKind(signIn));
    expect(handlers).toEqual([t.svc.ssoPortal.portalTestHandler]);
    const [handler] = handlers;
    if (handler === undefined) throw new Error('no portal-test handler');

    const location = await handler.complete(signIn, {}, {});
    expect(location).toBe(`${TEST_ORIGIN}/svc/admin/auth/sso-portal/setup#test-result`);
    const overview = await t.svc.ssoPortal.setup.overview(await reread(actor));
    expect(overview.testResult).toEqual({
      outcome: 'accepted',
      connectionId: connection.id,
      at: new Date(t.clock.now()).toISOString(),
      nameId: 'ada-7',
      nameIdFormat: ADA.nameIdFormat,
      email: 'ada@acme.test',
      attributes: expect.objectContaining({ groups: ['admins', 'eng'] }) as unknown,
    });
    // Nobody was signed in: no account exists for the asserted address.
    const users = await t.svc.admin.listUsersAsync({ limit: 100 });
    expect(users.data.map((u) => u.email)).not.toContain('ada@acme.test');
  });

  it('records a refusal when the connection belongs to another organization than the session', async () => {
    // The peer trusts the SP it was given last: the connection the answer goes to.
    const other = await givenSsoConnection(t, peer);
    const connection = await givenSsoConnection(t, peer);
    const actor = await portalSession(other.organizationId);
    const signIn = await t.svc.samlServiceProvider.consume(
      connection.id,
      ...(await (async () => {
        const started = await t.svc.samlServiceProvider.startAuthentication(connection.id, {
          kind: 'portal-test',
          portalSessionId: actor.session.id,
        });
        const post = await peer.signIn(started.redirectUrl, ADA);
        return [post.samlResponse, post.relayState] as const;
      })()),
    );
    await t.svc.ssoPortal.portalTestHandler.complete(signIn, {}, {});
    expect((await t.svc.ssoPortal.setup.overview(await reread(actor))).testResult).toMatchObject({
      outcome: 'refused',
      connectionId: connection.id,
      message: 'The connection belongs to another organization.',
    });
  });

  it('refuses an answer for a portal session that has ended, and records nothing', async () => {
    const connection = await givenSsoConnection(t, peer);
    const actor = await portalSession(connection.organizationId);
    const signIn = await testSignIn(actor, connection.id);
    await t.svc.admin.revokeSsoPortalLinkAsync(actor.linkId);
    const error = await t.svc.ssoPortal.portalTestHandler.complete(signIn, {}, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SamlError);
    expect(error).toMatchObject({ code: 'unknown_request', status: 400 });
    expect(await t.svc.ssoPortal.sessions.findById(actor.session.id)).toBeUndefined();
  });

  it('refuses to start a test on a connection of another organization (404)', async () => {
    const connection = await givenSsoConnection(t, peer);
    const other = await givenSsoConnection(t, peer);
    const actor = await portalSession(other.organizationId);
    await expect(t.svc.ssoPortal.setup.startTest(actor, connection.id)).rejects.toMatchObject({
      status: 404,
    });
  });
});
