import { randomUUID } from 'node:crypto';
import samlify, { type ServiceProviderInstance } from 'samlify';
import type { Clock } from '../../kernel/clock.js';
import { MINUTE_MS } from '../../kernel/clock.js';
import type { SamlTestKeyPair } from './saml-certificates.js';
import { samlSchemaValidator } from './saml-schema-validator.js';
import { startLoopbackServer, type LoopbackServer } from './loopback-server.js';

// samlify checks every message it parses against the SAML schemas: an AuthnRequest Svc sends must be valid.
samlify.setSchemaValidator(samlSchemaValidator);

const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

/** Who signs in at the peer. */
export interface SamlPeerUser {
  readonly email: string;
  /** Defaults to the email, in emailAddress format. */
  readonly nameId?: string;
  readonly nameIdFormat?: string;
  readonly attributes?: Readonly<Record<string, readonly string[]>>;
  readonly sessionIndex?: string;
}

/**
 * How the peer answers; every field defaults to what a well-behaved IdP sends. A null leaves the
 * attribute out of the XML.
 */
export interface SamlAnswer {
  /** What the IdP signs (SP metadata decides this at a real IdP). Default: the response. */
  readonly sign?: 'response' | 'assertion' | 'both';
  /** The key that signs. Default: the peer's current key. */
  readonly key?: SamlTestKeyPair;
  /** The signature method's URI. Default: samlify's RSA-SHA256. */
  readonly signatureAlgorithm?: string;
  readonly issuer?: string;
  readonly audience?: string;
  readonly destination?: string | null;
  readonly recipient?: string;
  /** The request answered (default: the AuthnRequest's ID; null = unsolicited). */
  readonly inResponseTo?: string | null;
  readonly status?: string;
  /** Default: the peer clock's now; the answer is valid for five minutes from it. */
  readonly issuedAt?: number;
}

/** The browser's form post to the ACS URL, as the peer's page holds it. */
export interface SamlPost {
  readonly acsUrl: string;
  readonly samlResponse: string;
  readonly relayState: string | undefined;
}

export interface SamlPeer {
  readonly origin: string;
  readonly entityId: string;
  readonly ssoUrl: string;
  /** The IdP's metadata, listing `keys` as its signing certificates (default: the current key). */
  metadata(keys?: readonly SamlTestKeyPair[]): string;
  /** Trusts the SP of this metadata document, as an IdP admin does (Svc's GET /saml/metadata/{id}). */
  trust(spMetadataXml: string): void;
  /** Follows Svc's redirect to the peer as a browser would, signs `user` in, and reads the posting page. */
  signIn(redirectUrl: string, user: SamlPeerUser, answer?: SamlAnswer): Promise<SamlPost>;
  /** Signs `user` in when a browser arrives next; its page has a Continue button that posts the answer. */
  awaitBrowser(user: SamlPeerUser, answer?: SamlAnswer): void;
  /** An answer to no request (IdP-initiated), for the trusted SP. */
  unsolicited(user: SamlPeerUser, answer?: SamlAnswer): Promise<SamlPost>;
  close(): Promise<void>;
}

const escapeXml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? '&apos;',
  );

function statements(user: SamlPeerUser, issuedAt: string): string {
  const authn = `<saml:AuthnStatement AuthnInstant="${issuedAt}" SessionIndex="${escapeXml(user.sessionIndex ?? '_session-1')}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`;
  const attributes = Object.entries(user.attributes ?? {})
    .map(
      ([name, values]) =>
        `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified">${values
          .map(
            (value) => `<saml:AttributeValue xsi:type="xs:string">${escapeXml(value)}</saml:AttributeValue>`,
          )
          .join('')}</saml:Attribute>`,
    )
    .join('');
  return (
    authn + (attributes === '' ? '' : `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>`)
  );
}

/**
 * A SAML identity provider on 127.0.0.1 built on samlify 2 (docs/reference/testing.md "Peers on loopback"):
 * its SSO endpoint takes Svc's AuthnRequest by HTTP-Redirect (schema-validated), signs the user in and
 * answers the page that posts the response to the ACS URL. Times come from `clock`, so that tests move
 * the IdP's time with Svc's.
 */
export async function startSamlPeer(keys: { current: SamlTestKeyPair }, clock: Clock): Promise<SamlPeer> {
  const server: LoopbackServer = await startLoopbackServer();
  const entityId = `${server.origin}/idp`;
  const ssoUrl = `${server.origin}/sso`;
  const identityProvider = (signing: readonly SamlTestKeyPair[], signatureAlgorithm?: string) =>
    samlify.IdentityProvider({
      ...(signatureAlgorithm === undefined ? {} : { requestSignatureAlgorithm: signatureAlgorithm }),
      entityID: entityId,
      signingCert: signing.map((pair) => pair.certificate),
      privateKey: signing[0]?.key ?? keys.current.key,
      nameIDFormat: [EMAIL_FORMAT],
      singleSignOnService: [{ Binding: REDIRECT, Location: ssoUrl }],
      singleLogoutService: [{ Binding: REDIRECT, Location: `${server.origin}/slo` }],
    });
  let sp: ServiceProviderInstance | undefined;
  let pending: { user: SamlPeerUser; answer: SamlAnswer } | undefined;

  const respond = async (requestId: string | null, user: SamlPeerUser, answer: SamlAnswer) => {
    if (sp === undefined) throw new Error('The SAML peer trusts no SP yet: call trust(spMetadataXml).');
    const acsUrl = sp.entityMeta.getAssertionConsumerService('post') as string;
    const spEntityId = sp.entityMeta.getEntityID();
    const sign = answer.sign ?? 'response';
    const signingSp = samlify.ServiceProvider({
      entityID: spEntityId,
      assertionConsumerService: [{ Binding: POST, Location: acsUrl }],
      wantAssertionsSigned: sign !== 'response',
      wantMessageSigned: sign !== 'assertion',
    });
    const issuedAtMs = answer.issuedAt ?? clock.now();
    const issuedAt = new Date(issuedAtMs).toISOString();
    const until = new Date(issuedAtMs + 5 * MINUTE_MS).toISOString();
    const id = `_${randomUUID()}`;
    const values = {
      ID: id,
      AssertionID: `_${randomUUID()}`,
      Destination: answer.destination === undefined ? acsUrl : answer.destination,
      Audience: answer.audience ?? spEntityId,
      SubjectRecipient: answer.recipient ?? acsUrl,
      Issuer: answer.issuer ?? entityId,
      IssueInstant: issuedAt,
      StatusCode: answer.status ?? SUCCESS,
      ConditionsNotBefore: issuedAt,
      ConditionsNotOnOrAfter: until,
      SubjectConfirmationDataNotOnOrAfter: until,
      NameIDFormat: user.nameIdFormat ?? EMAIL_FORMAT,
      NameID: user.nameId ?? user.email,
      InResponseTo: answer.inResponseTo === undefined ? requestId : answer.inResponseTo,
    };
    const template = samlify.SamlLib.defaultLoginResponseTemplate.context.replace(
      '{AuthnStatement}{AttributeStatement}',
      statements(user, issuedAt),
    );
    const signer = identityProvider([answer.key ?? keys.current], answer.signatureAlgorithm);
    const { context } = await signer.createLoginResponse(
      signingSp,
      { extract: {} },
      'post',
      { email: user.email },
      { customTagReplacement: () => ({ id, context: samlify.SamlLib.replaceTagsByValue(template, values) }) },
    );
    return { acsUrl, samlResponse: context };
  };

  server.serve(async (request, response) => {
    const url = new URL(request.url ?? '/', server.origin);
    if (url.pathname !== '/sso' || sp === undefined || pending === undefined) {
      response.statusCode = 404;
      response.end();
      return;
    }
    const { user, answer } = pending;
    pending = undefined;
    const parsed = await identityProvider([keys.current]).parseLoginRequest(sp, 'redirect', {
      query: Object.fromEntries(url.searchParams),
    });
    const requestId = String((parsed.extract.request as Record<string, string>).id);
    const { acsUrl, samlResponse } = await respond(requestId, user, answer);
    const relayState = url.searchParams.get('RelayState');
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(
      `<form method="post" action="${escapeXml(acsUrl)}"><input type="hidden" name="SAMLResponse" value="${samlResponse}">${
        relayState === null ? '' : `<input type="hidden" name="RelayState" value="${escapeXml(relayState)}">`
      }<button>Continue</button></form>`,
    );
  });

  return {
    origin: server.origin,
    entityId,
    ssoUrl,
    metadata: (signing = [keys.current]) => identityProvider(signing).getMetadata(),
    trust(spMetadataXml) {
      sp = samlify.ServiceProvider({ metadata: spMetadataXml });
    },
    async signIn(redirectUrl, user, answer = {}) {
      pending = { user, answer };
      const page = await (await fetch(redirectUrl)).text();
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1];
      const acsUrl = /action="([^"]*)"/.exec(page)?.[1];
      const samlResponse = field('SAMLResponse');
      if (acsUrl === undefined || samlResponse === undefined)
        throw new Error(`The SAML peer answered: ${page}`);
      const relayState = field('RelayState');
      return { acsUrl, samlResponse, relayState };
    },
    awaitBrowser(user, answer = {}) {
      pending = { user, answer };
    },
    async unsolicited(user, answer = {}) {
      const { acsUrl, samlResponse } = await respond(null, user, answer);
      return { acsUrl, samlResponse, relayState: undefined };
    },
    close: () => server.close(),
  };
}
