import type { Clock } from '../../kernel/clock.js';
import { sha256Hex } from '../../kernel/crypto.js';
import type { Ids } from '../../kernel/ids.js';
import { checkAssertion } from './assertion-checks.js';
import { mapIdentity } from './attribute-mapping.js';
import type { SamlUsedAssertionRepository } from './authn-request-repository.js';
import type { SamlAuthnRequests, SamlContinuation } from './authn-requests.js';
import { SamlError } from './errors.js';
import type { SsoConnectionRecord, SsoConnectionRepository } from './repository.js';
import { readSamlResponse } from './response-input.js';
import { authnRequestUrl, verifiedAssertionXml, type SamlPeers } from './saml-client.js';
import { serviceProviderMetadata } from './sp-metadata.js';
import { readAssertion } from './verified-assertion.js';

export interface SamlServiceProviderDeps {
  /** Read on every call, so that disabling a connection holds on every node at once. */
  readonly connections: Pick<SsoConnectionRepository, 'findById'>;
  readonly requests: SamlAuthnRequests;
  readonly usedAssertions: SamlUsedAssertionRepository;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** The connection a sign-in went through, as the sign-in decides what to do with the user. */
export interface SamlSignInConnection {
  readonly id: string;
  readonly organizationId: string;
  readonly displayName: string;
  readonly primaryDomain: string | null;
  readonly autoProvisionUsers: boolean;
  readonly autoLinkByEmail: boolean;
  readonly idpEntityId: string;
}

/** A started sign-in: where to send the browser (303), and until when the IdP's answer is awaited. */
export interface SamlAuthenticationStart {
  readonly redirectUrl: string;
  readonly expiresAt: number;
}

/** An accepted answer of the IdP: who signed in, and what the sign-in continues with. */
export interface SamlSignIn {
  readonly connection: SamlSignInConnection;
  readonly nameId: string;
  readonly nameIdFormat: string | null;
  readonly email: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly displayName: string | null;
  /** Every attribute of the assertion by its Name. */
  readonly attributes: Readonly<Record<string, readonly string[]>>;
  readonly sessionIndex: string | null;
  readonly continuation: SamlContinuation;
}

const CONNECTION_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * The longest NameID Svc links an account by. SAML Core §8.3.7 caps a persistent identifier at 256
 * characters, and an email-format one is an address; the cap in bytes keeps the link a row PostgreSQL's
 * index takes (its entries hold about 2,700 bytes), so a longer one is a refused answer, not a failure.
 */
const MAX_NAME_ID_BYTES = 1024;

/** An enabled connection has its IdP's metadata (enable refuses a draft). */
type EnabledConnection = SsoConnectionRecord & { readonly idpEntityId: string; readonly idpSsoUrl: string };

/**
 * Svc as the SAML service provider of each SSO connection (docs/reference/federation.md "Bindings"): its
 * metadata, AuthnRequests by HTTP-Redirect, and the answers posted to the ACS URL. Surfaces call it and map
 * its typed {@link SamlError}s; the sign-in engine decides what an accepted answer signs in.
 */
export class SamlServiceProvider {
  readonly #deps: SamlServiceProviderDeps;

  constructor(deps: SamlServiceProviderDeps) {
    this.#deps = deps;
  }

  /** The SP metadata document of a connection (a draft too: the IdP is configured with it first). */
  async metadata(connectionId: string): Promise<string> {
    return serviceProviderMetadata(await this.#connection(connectionId));
  }

  /**
   * Starts a sign-in at the connection's IdP: a fresh AuthnRequest (ID and RelayState from `Ids`) is
   * remembered with `continuation` for ten minutes, and the browser is to be sent to the returned URL.
   */
  async startAuthentication(
    connectionId: string,
    continuation: SamlContinuation,
  ): Promise<SamlAuthenticationStart> {
    const connection = enabled(await this.#connection(connectionId));
    // An xs:ID must not start with a digit or '-'; 256 random bits follow the underscore.
    const requestId = `_${this.#deps.ids.secret()}`;
    const relayState = this.#deps.ids.secret();
    const redirectUrl = await authnRequestUrl(peers(connection), requestId, relayState);
    const expiresAt = await this.#deps.requests.begin(requestId, relayState, connection.id, continuation);
    return { redirectUrl, expiresAt };
  }

  /**
   * Accepts the IdP's answer posted to the connection's ACS URL (`SAMLResponse` and `RelayState`), or
   * throws a SamlError. In order: the connection is enabled; the response is base64 XML; a signature by
   * one of the IdP's certificates covers one assertion for this SP (library); issuer, times, destination,
   * recipient and InResponseTo (assertion-checks.ts); it names a subject (NameID) and an email address;
   * the assertion was never accepted before; the request it answers was sent for this connection with
   * this RelayState, and is taken now. Once the assertion is remembered, a later refusal (an unknown
   * request, another RelayState) still uses it up: the user signs in at the IdP again.
   */
  async consume(
    connectionId: string,
    samlResponse: string | undefined,
    relayState: string | undefined,
  ): Promise<SamlSignIn> {
    const connection = enabled(await this.#connection(connectionId));
    const envelope = readSamlResponse(samlResponse);
    const facts = readAssertion(await verifiedAssertionXml(peers(connection), envelope.base64));
    const now = this.#deps.clock.now();
    const checked = checkAssertion(facts, envelope, connection, now);
    const { nameId } = facts;
    if (nameId === undefined || nameId === '') {
      throw new SamlError('invalid_response', 'The SAML assertion names no subject (NameID).');
    }
    if (Buffer.byteLength(nameId) > MAX_NAME_ID_BYTES) {
      throw new SamlError(
        'invalid_response',
        `The SAML assertion's NameID is longer than ${String(MAX_NAME_ID_BYTES)} bytes: have the IdP send a shorter identifier.`,
      );
    }
    const identity = mapIdentity(facts);
    if (identity.email === undefined) {
      // An address that is not ASCII before the @ is none: it is refused, never folded into another
      // account's (docs/decisions/admin-email-identity-ascii-exact.md).
      throw new SamlError(
        'missing_email',
        "The SAML assertion carries no email address Svc accepts: have the IdP send the user's address, " +
          'ASCII before the @ (such as ann@example.com).',
      );
    }
    const fresh = await this.#deps.usedAssertions.remember({
      connectionId: connection.id,
      assertionIdHash: sha256Hex(facts.id),
      usedAt: now,
      expiresAt: checked.acceptableUntil,
    });
    if (!fresh) throw new SamlError('replayed_assertion', 'This SAML assertion was already used.');
    const request = await this.#deps.requests.take(checked.requestId);
    if (request === undefined || request.connectionId !== connection.id) {
      throw new SamlError('unknown_request', 'The SAML response answers no sign-in that Svc is waiting for.');
    }
    if (relayState === undefined || !request.relayStateMatches(relayState)) {
      throw new SamlError('invalid_relay_state', 'The RelayState is not the one this sign-in was sent with.');
    }
    return {
      connection: signInConnection(connection),
      nameId,
      nameIdFormat: facts.nameIdFormat ?? null,
      email: identity.email,
      firstName: identity.firstName,
      lastName: identity.lastName,
      displayName: identity.displayName,
      attributes: facts.attributes,
      sessionIndex: facts.sessionIndex ?? null,
      continuation: request.continuation,
    };
  }

  async #connection(connectionId: string): Promise<SsoConnectionRecord> {
    // Ids are printable ASCII; anything else (a NUL from a path) is no id and must not reach the database.
    const found = CONNECTION_ID.test(connectionId)
      ? await this.#deps.connections.findById(connectionId)
      : undefined;
    if (found === undefined) {
      throw new SamlError('connection_not_found', `SSO connection '${connectionId}' was not found.`);
    }
    return found;
  }
}

function enabled(connection: SsoConnectionRecord): EnabledConnection {
  const { idpEntityId, idpSsoUrl } = connection;
  if (!connection.enabled || idpEntityId === null || idpSsoUrl === null) {
    throw new SamlError('connection_disabled', `SSO connection '${connection.id}' is disabled.`);
  }
  return { ...connection, idpEntityId, idpSsoUrl };
}

function peers(connection: EnabledConnection): SamlPeers {
  return {
    spEntityId: connection.spEntityId,
    acsUrl: connection.acsUrl,
    idpSsoUrl: connection.idpSsoUrl,
    idpSigningCertificates: connection.idpSigningCertificates,
  };
}

function signInConnection(connection: EnabledConnection): SamlSignInConnection {
  return {
    id: connection.id,
    organizationId: connection.organizationId,
    displayName: connection.displayName,
    primaryDomain: connection.primaryDomain,
    autoProvisionUsers: connection.autoProvisionUsers,
    autoLinkByEmail: connection.autoLinkByEmail,
    idpEntityId: connection.idpEntityId,
  };
}
