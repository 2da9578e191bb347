import { MINUTE_MS } from '../../kernel/clock.js';
import { SamlError } from './errors.js';
import type { SamlResponseEnvelope } from './response-input.js';
import type { AssertionFacts, BearerConfirmation } from './verified-assertion.js';

/**
 * How far the IdP's clock may be from Svc's (one minute, as for access tokens: docs/reference/federation.md
 * "How an answer is checked").
 */
export const SAML_CLOCK_SKEW_MS = MINUTE_MS;

/** What the connection expects of an answer. */
export interface ExpectedAnswer {
  readonly idpEntityId: string;
  readonly acsUrl: string;
}

/** An assertion that passed: the request it answers, and until when it could be accepted (replay window). */
export interface CheckedAssertion {
  readonly requestId: string;
  readonly acceptableUntil: number;
}

/**
 * The checks Svc makes itself on a signed assertion (saml-client.ts says which the library makes), on
 * the injected clock with {@link SAML_CLOCK_SKEW_MS} either way:
 *
 * - the issuer is the connection's IdP;
 * - now is within the Conditions' NotBefore / NotOnOrAfter;
 * - the response's Destination, when present, is the ACS URL (it is present whenever the response is
 *   signed, SAML bindings §3.5.5.2);
 * - a bearer SubjectConfirmation has Recipient = the ACS URL, a NotOnOrAfter still ahead, and the
 *   InResponseTo of a request (SAML profiles §4.1.4.2); the response's own InResponseTo, when present,
 *   names the same request. Unsolicited (IdP-initiated) answers are refused: they name no request.
 */
export function checkAssertion(
  facts: AssertionFacts,
  envelope: SamlResponseEnvelope,
  expected: ExpectedAnswer,
  now: number,
): CheckedAssertion {
  if (facts.issuer !== expected.idpEntityId) {
    throw new SamlError('invalid_issuer', 'The SAML assertion was issued by another identity provider.');
  }
  checkWindow(facts.notBefore, facts.notOnOrAfter, now);
  if (envelope.destination !== undefined && envelope.destination !== expected.acsUrl) {
    throw new SamlError(
      'invalid_destination',
      'The SAML response was sent to another address than the ACS URL of this connection.',
    );
  }
  const confirmation = bearerConfirmation(facts.confirmations, expected.acsUrl, now);
  const requestId = confirmation.inResponseTo;
  if (requestId === undefined || requestId === '') {
    throw new SamlError('unknown_request', 'The SAML response answers no sign-in that Svc started.');
  }
  if (envelope.inResponseTo !== undefined && envelope.inResponseTo !== requestId) {
    throw new SamlError('unknown_request', 'The SAML response and its assertion answer different requests.');
  }
  const until = Math.max(facts.notOnOrAfter ?? 0, confirmation.notOnOrAfter ?? 0);
  return { requestId, acceptableUntil: until + SAML_CLOCK_SKEW_MS };
}

function checkWindow(notBefore: number | undefined, notOnOrAfter: number | undefined, now: number): void {
  if (notBefore !== undefined && now + SAML_CLOCK_SKEW_MS < notBefore) {
    throw new SamlError('assertion_not_yet_valid', 'The SAML assertion is not valid yet.');
  }
  if (notOnOrAfter !== undefined && now - SAML_CLOCK_SKEW_MS >= notOnOrAfter) {
    throw new SamlError('assertion_expired', 'The SAML assertion has expired.');
  }
}

/**
 * The bearer confirmation this answer is accepted by: for this ACS URL, with a NotOnOrAfter (required by
 * the profile, and what bounds the replay window) and within its window. When none fits, the first
 * one's fault is reported.
 */
function bearerConfirmation(
  confirmations: readonly BearerConfirmation[],
  acsUrl: string,
  now: number,
): BearerConfirmation {
  let fault: SamlError | undefined;
  for (const confirmation of confirmations) {
    try {
      if (confirmation.recipient !== acsUrl) {
        throw new SamlError(
          'invalid_destination',
          'The Recipient of the SAML assertion is not the ACS URL of this connection.',
        );
      }
      if (confirmation.notOnOrAfter === undefined) {
        throw new SamlError(
          'invalid_response',
          'The subject confirmation of the SAML assertion has no NotOnOrAfter.',
        );
      }
      checkWindow(confirmation.notBefore, confirmation.notOnOrAfter, now);
      return confirmation;
    } catch (error) {
      fault ??= error as SamlError;
    }
  }
  throw fault ?? new SamlError('invalid_response', 'The SAML assertion has no bearer subject confirmation.');
}
