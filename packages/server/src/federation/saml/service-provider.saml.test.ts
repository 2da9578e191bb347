import { inflateRawSync } from 'node:zlib';
import type { SvcSsoConnection } from '@svc/contract';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { MINUTE_MS } from '../../kernel/clock.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { samlTestKeys, type SamlTestKeys } from '../../test-support/federation/saml-certificates.js';
import {
  startSamlPeer,
  type SamlAnswer,
  type SamlPeer,
  type SamlPeerUser,
} from '../../test-support/federation/saml-peer.js';
import { samlSchemaValidator } from '../../test-support/federation/saml-schema-validator.js';
import { givenSsoConnection } from '../../test-support/federation/sso-connections.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';
import { SAML_CLOCK_SKEW_MS } from './assertion-checks.js';
import { SAML_AUTHN_REQUEST_LIFETIME_MS } from './authn-requests.js';
import { SamlError, type SamlErrorCode } from './errors.js';
import type { SamlServiceProvider } from './service-provider.js';

const ADA: SamlPeerUser = {
  email: 'ada@acme.test',
  sessionIndex: '_session-ada',
  attributes: { firstName: ['Ada'], lastName: ['Lovelace'], groups: ['admins', 'staff'] },
};
const CONTINUATION = { authRequestId: 'azr_123', view: null };

/**
 * Svc as a SAML service provider against samlify as the identity provider on loopback: the AuthnRequest
 * it sends (schema-validated by the IdP), and what it accepts and refuses of the IdP's answers.
 */
describeAboveStorage('SAML service provider', (kind) => {
  let t: TestSvc;
  let keys: SamlTestKeys;
  let peer: SamlPeer;
  let sp: SamlServiceProvider;
  let connection: SvcSsoConnection;

  beforeAll(async () => {
    [t, keys] = await Promise.all([createTestSvc(kind), samlTestKeys()]);
    peer = await startSamlPeer(keys, t.clock);
    sp = t.svc.samlServiceProvider;
  });
  afterAll(async () => {
    await peer.close();
    await t.close();
  });
  beforeEach(async () => {
    connection = await givenSsoConnection(t, peer);
  });

  /** The browser's round trip: Svc's redirect, the IdP's sign-in, the form post it answers. */
  const signIn = async (user: SamlPeerUser = ADA, answer?: SamlAnswer, on = connection) => {
    const started = await sp.startAuthentication(on.id, CONTINUATION);
    return peer.signIn(started.redirectUrl, user, answer);
  };
  const refusal = async (promise: Promise<unknown>): Promise<SamlError> => {
    const error = await promise.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(SamlError);
    return error as SamlError;
  };
  const refused = async (promise: Promise<unknown>, code: SamlErrorCode) => {
    const error = await refusal(promise);
    expect({ code: error.code, status: error.status }, error.detail ?? error.message).toEqual({
      code,
      status: code === 'connection_not_found' ? 404 : 400,
    });
  };
  const tampered = (samlResponse: string, change: (xml: string) => string) =>
    Buffer.from(change(Buffer.from(samlResponse, 'base64').toString('utf8')), 'utf8').toString('base64');

  it('sends an AuthnRequest by HTTP-Redirect and accepts the signed answer, with who signed in and the continuation', async () => {
    const started = await sp.startAuthentication(connection.id, CONTINUATION);
    const redirect = new URL(started.redirectUrl);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(peer.ssoUrl);
    expect([...redirect.searchParams.keys()].sort()).toEqual(['RelayState', 'SAMLRequest']);
    expect(started.expiresAt).toBe(t.clock.now() + SAML_AUTHN_REQUEST_LIFETIME_MS);

    const post = await peer.signIn(started.redirectUrl, ADA);
    expect(post.acsUrl).toBe(connection.acsUrl);
    expect(post.acsUrl).toBe(`http://localhost:8080/svc/auth/saml/acs/${connection.id}`);
    expect(await sp.consume(connection.id, post.samlResponse, post.relayState)).toEqual({
      connection: {
        id: connection.id,
        organizationId: connection.organizationId,
        displayName: 'Acme SSO',
        primaryDomain: 'acme.test',
        autoProvisionUsers: true,
        autoLinkByEmail: false,
        idpEntityId: peer.entityId,
      },
      nameId: 'ada@acme.test',
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      email: 'ada@acme.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
      displayName: 'Ada Lovelace',
      attributes: { firstName: ['Ada'], lastName: ['Lovelace'], groups: ['admins', 'staff'] },
      sessionIndex: '_session-ada',
      continuation: CONTINUATION,
    });
  });

  it("sends an AuthnRequest the IdP's schema check passes, which refuses one without IssueInstant", async () => {
    const started = await sp.startAuthentication(connection.id, CONTINUATION);
    const encoded = new URL(started.redirectUrl).searchParams.get('SAMLRequest') ?? '';
    const request = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
    await expect(samlSchemaValidator.validate(request)).resolves.toBe('SUCCESS_VALIDATE_XML');
    const broken = request.replace(/ IssueInstant="[^"]*"/, '');
    expect(broken).not.toBe(request);
    await expect(samlSchemaValidator.validate(broken)).rejects.toThrow(
      /attribute 'IssueInstant' is required but missing/,
    );
  });

  it('accepts an answer whose assertion is signed, or both it and the response', async () => {
    for (const sign of ['assertion', 'both'] as const) {
      const post = await signIn(ADA, { sign });
      expect((await sp.consume(connection.id, post.samlResponse, post.relayState)).email).toBe(ADA.email);
    }
  });

  it('reads Entra ID claim names, and prefers the email claim to a user-principal-name NameID', async () => {
    const claims = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';
    const post = await signIn({
      email: 'grace@acme.test',
      nameId: 'g.hopper@acme.onmicrosoft.test',
      attributes: {
        [`${claims}/emailaddress`]: ['grace@acme.test'],
        [`${claims}/givenname`]: ['Grace'],
        [`${claims}/surname`]: ['Hopper'],
        'http://schemas.microsoft.com/identity/claims/displayname': ['Rear Admiral Hopper'],
      },
    });
    expect(await sp.consume(connection.id, post.samlResponse, post.relayState)).toMatchObject({
      nameId: 'g.hopper@acme.onmicrosoft.test',
      email: 'grace@acme.test',
      firstName: 'Grace',
      lastName: 'Hopper',
      displayName: 'Rear Admiral Hopper',
    });
  });

  it('refuses a signature by another key, an answer altered after signing, and a stripped signature', async () => {
    const forged = await signIn(ADA, { key: keys.forger });
    await refused(sp.consume(connection.id, forged.samlResponse, forged.relayState), 'invalid_signature');

    for (const sign of ['response', 'assertion'] as const) {
      const altered = await signIn(ADA, { sign });
      const changed = tampered(altered.samlResponse, (xml) => xml.replaceAll(ADA.email, 'mallory@acme.test'));
      await refused(sp.consume(connection.id, changed, altered.relayState), 'invalid_signature');
    }

    const stripped = await signIn(ADA, { sign: 'both' });
    const unsigned = tampered(stripped.samlResponse, (xml) =>
      xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, ''),
    );
    await refused(sp.consume(connection.id, unsigned, stripped.relayState), 'invalid_signature');
  });

  it('refuses an answer signed with SHA-1, saying what to change at the IdP', async () => {
    const sha1 = await signIn(ADA, { signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' });
    const xml = Buffer.from(sha1.samlResponse, 'base64').toString('utf8');
    expect(xml).toContain('Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"');
    await expect(sp.consume(connection.id, sha1.samlResponse, sha1.relayState)).rejects.toMatchObject({
      code: 'invalid_signature',
      message: expect.stringContaining('set its signing algorithm to SHA-256') as string,
    });
    // The same IdP signing with SHA-256 (its default) is accepted.
    const sha256 = await signIn(ADA);
    expect((await sp.consume(connection.id, sha256.samlResponse, sha256.relayState)).email).toBe(ADA.email);
  });

  it('refuses signature wrapping: a second, unsigned assertion beside or instead of the signed one', async () => {
    for (const sign of ['response', 'assertion'] as const) {
      const post = await signIn(ADA, { sign });
      const xml = Buffer.from(post.samlResponse, 'base64').toString('utf8');
      const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] ?? '';
      const evil = signed
        .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, '')
        .replace(/ID="[^"]+"/, 'ID="_evil"')
        .replaceAll(ADA.email, 'mallory@acme.test');
      const beside = tampered(post.samlResponse, (text) => text.replace(signed, `${evil}${signed}`));
      await refused(sp.consume(connection.id, beside, post.relayState), 'invalid_signature');
      // The signed assertion hidden in an extension, the unsigned one where an assertion belongs.
      const hidden = tampered(post.samlResponse, (text) =>
        text.replace(signed, `<samlp:Extensions>${signed}</samlp:Extensions>${evil}`),
      );
      await refused(sp.consume(connection.id, hidden, post.relayState), 'invalid_signature');
    }
  });

  it('refuses an assertion for another audience, recipient or destination, or from another issuer', async () => {
    const cases: [SamlAnswer, SamlErrorCode][] = [
      [{ audience: 'https://other-sp.test/metadata' }, 'invalid_audience'],
      [{ recipient: 'https://other-sp.test/acs' }, 'invalid_destination'],
      [{ destination: 'https://other-sp.test/acs' }, 'invalid_destination'],
      [{ issuer: 'https://other-idp.test/entity' }, 'invalid_issuer'],
    ];
    for (const [answer, code] of cases) {
      for (const sign of ['response', 'assertion'] as const) {
        const post = await signIn(ADA, { ...answer, sign });
        await refused(sp.consume(connection.id, post.samlResponse, post.relayState), code);
      }
    }
  });

  it('keeps to NotBefore and NotOnOrAfter on the injected clock, with a minute of skew', async () => {
    const late = await signIn();
    t.clock.advance(5 * MINUTE_MS + SAML_CLOCK_SKEW_MS);
    await refused(sp.consume(connection.id, late.samlResponse, late.relayState), 'assertion_expired');

    const early = await signIn(ADA, { issuedAt: t.clock.now() + SAML_CLOCK_SKEW_MS + 1000 });
    await refused(sp.consume(connection.id, early.samlResponse, early.relayState), 'assertion_not_yet_valid');

    const skewed = await signIn(ADA, { issuedAt: t.clock.now() + SAML_CLOCK_SKEW_MS - 1000 });
    expect((await sp.consume(connection.id, skewed.samlResponse, skewed.relayState)).email).toBe(ADA.email);
    const almost = await signIn();
    t.clock.advance(5 * MINUTE_MS + SAML_CLOCK_SKEW_MS - 1);
    expect((await sp.consume(connection.id, almost.samlResponse, almost.relayState)).email).toBe(ADA.email);
  });

  it('accepts an answer once: a replayed response is refused', async () => {
    const post = await signIn();
    await sp.consume(connection.id, post.samlResponse, post.relayState);
    await refused(sp.consume(connection.id, post.samlResponse, post.relayState), 'replayed_assertion');
  });

  it('refuses unsolicited answers, unknown or expired requests, requests of another connection, another RelayState', async () => {
    const unsolicited = await peer.unsolicited(ADA);
    await refused(sp.consume(connection.id, unsolicited.samlResponse, 'relay'), 'unknown_request');

    const unknown = await signIn(ADA, { inResponseTo: '_never-sent' });
    await refused(sp.consume(connection.id, unknown.samlResponse, unknown.relayState), 'unknown_request');

    const started = await sp.startAuthentication(connection.id, CONTINUATION);
    t.clock.advance(SAML_AUTHN_REQUEST_LIFETIME_MS);
    const late = await peer.signIn(started.redirectUrl, ADA);
    await refused(sp.consume(connection.id, late.samlResponse, late.relayState), 'unknown_request');

    const relay = await signIn();
    await refused(
      sp.consume(connection.id, relay.samlResponse, 'another-relay-state'),
      'invalid_relay_state',
    );
    await refused(sp.consume(connection.id, relay.samlResponse, undefined), 'replayed_assertion');
    const missing = await signIn();
    await refused(sp.consume(connection.id, missing.samlResponse, undefined), 'invalid_relay_state');

    // The same IdP for a second connection: an answer to a request of the first, shaped for the second.
    const first = connection;
    const second = await givenSsoConnection(t, peer);
    const crossed = await signIn(
      ADA,
      { audience: second.spEntityId, recipient: second.acsUrl, destination: second.acsUrl },
      first,
    );
    await refused(sp.consume(second.id, crossed.samlResponse, crossed.relayState), 'unknown_request');
  });

  it('takes certificates in rollover: either of two while both are listed, only the new one after', async () => {
    const rolling = await t.svc.admin.importSsoMetadataAsync(
      connection.id,
      peer.metadata([keys.current, keys.next]),
    );
    expect(rolling.idpCertificates.map((c) => c.subject)).toEqual([
      'CN=svc-test-idp-current',
      'CN=svc-test-idp-next',
    ]);
    for (const key of [keys.current, keys.next]) {
      const post = await signIn(ADA, { key });
      expect((await sp.consume(connection.id, post.samlResponse, post.relayState)).email).toBe(ADA.email);
    }
    await t.svc.admin.importSsoMetadataAsync(connection.id, peer.metadata([keys.next]));
    const old = await signIn(ADA, { key: keys.current });
    await refused(sp.consume(connection.id, old.samlResponse, old.relayState), 'invalid_signature');
    const current = await signIn(ADA, { key: keys.next });
    expect((await sp.consume(connection.id, current.samlResponse, current.relayState)).email).toBe(ADA.email);
  });

  it('refuses to start or finish through a disabled or unknown connection', async () => {
    const post = await signIn();
    await t.svc.admin.disableSsoConnectionAsync(connection.id);
    await refused(sp.consume(connection.id, post.samlResponse, post.relayState), 'connection_disabled');
    await refused(sp.startAuthentication(connection.id, CONTINUATION), 'connection_disabled');
    await refused(sp.startAuthentication('sso_unknown', CONTINUATION), 'connection_not_found');
    await refused(sp.consume('sso\u0000x', post.samlResponse, post.relayState), 'connection_not_found');
    await refused(sp.metadata('sso_unknown'), 'connection_not_found');
  });

  it('answers 400 malformed_response for what is not a base64 SAML Response, and idp_error for a refusal', async () => {
    const toBase64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
    for (const samlResponse of [
      undefined,
      '',
      'not base64!',
      toBase64('<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">'),
      toBase64('plain text'),
      toBase64('<Response/>'),
      toBase64('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "y">]><r>&x;</r>'),
    ]) {
      await refused(sp.consume(connection.id, samlResponse, 'relay'), 'malformed_response');
    }
    const refusedAtIdp = await signIn(ADA, { status: 'urn:oasis:names:tc:SAML:2.0:status:Requester' });
    await refused(sp.consume(connection.id, refusedAtIdp.samlResponse, refusedAtIdp.relayState), 'idp_error');
  });

  it('refuses an assertion without any email address', async () => {
    const post = await signIn({
      email: 'ignored@acme.test',
      nameId: 'employee-4711',
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    });
    await refused(sp.consume(connection.id, post.samlResponse, post.relayState), 'missing_email');
  });

  it('refuses a NameID longer than 1,024 bytes, and takes one of 1,024', async () => {
    const persistent = {
      ...ADA,
      attributes: { email: ['ada@acme.test'] },
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    };
    const long = await signIn({ ...persistent, nameId: 'é'.repeat(513) });
    await refused(sp.consume(connection.id, long.samlResponse, long.relayState), 'invalid_response');
    const longest = await signIn({ ...persistent, nameId: 'é'.repeat(512) });
    expect(await sp.consume(connection.id, longest.samlResponse, longest.relayState)).toMatchObject({
      nameId: 'é'.repeat(512),
    });
  });
});
