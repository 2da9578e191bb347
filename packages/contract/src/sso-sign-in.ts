import { z } from 'zod';
import { absoluteUriSchema, emailSchema } from './admin.js';
import {
  appCodeChallengeMethodSchema,
  appCodeChallengeSchema,
  appCodeVerifierSchema,
  appStateSchema,
  printable,
} from './app-checks.js';
import { clientIdSchema, clientSecretField } from './auth.js';
import { nullable } from './fields.js';

/**
 * The SAML entry points of first-party apps (docs/reference/federation.md, the routes
 * `POST /sso/authorization-url` and `POST /token/exchange`, the in-process SSO StartAuthorizationAsync
 * and ExchangeCodeAsync). camelCase, not strict (unknown keys are ignored); each request carries the
 * optional `clientSecret` of a confidential client (docs/reference/sign-in.md
 * "Direct JSON helpers").
 */

/**
 * The SSO authorization start request (docs/reference/federation.md "SAML entry points of first-party
 * apps") {email, clientId, redirectUri, state, codeChallenge,
 * codeChallengeMethod}: the email finds the organization's connection (home-realm discovery);
 * `redirectUri` must be one of the client's registered redirect URIs, exactly (case-sensitive).
 */
export const svcSsoAuthorizationRequestSchema = z.object({
  email: emailSchema,
  clientId: nullable(clientIdSchema),
  clientSecret: clientSecretField,
  redirectUri: absoluteUriSchema,
  state: appStateSchema,
  codeChallenge: appCodeChallengeSchema,
  codeChallengeMethod: appCodeChallengeMethodSchema,
});
export type SvcSsoAuthorizationRequest = z.input<typeof svcSsoAuthorizationRequestSchema>;
export type SvcSsoAuthorizationInput = z.output<typeof svcSsoAuthorizationRequestSchema>;

/** Its result: the IdP's URL to send the browser to, and the organization it signs in to. */
export const svcSsoAuthorizationResultSchema = z.object({
  authorizationUrl: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  primaryDomain: z.string().nullable(),
});
export type SvcSsoAuthorizationResult = z.output<typeof svcSsoAuthorizationResultSchema>;

/**
 * docs/reference/federation.md exchange request {code, clientId, redirectUri, codeVerifier} (`POST /token/exchange`,
 * ExchangeCodeAsync): the temporary code of the request-token flow, with the redirect URI it was sent to
 * and the verifier of the start's challenge.
 */
export const svcSsoCodeExchangeRequestSchema = z.object({
  code: printable(512),
  clientId: nullable(clientIdSchema),
  clientSecret: clientSecretField,
  redirectUri: absoluteUriSchema,
  codeVerifier: appCodeVerifierSchema,
});
export type SvcSsoCodeExchangeRequest = z.input<typeof svcSsoCodeExchangeRequestSchema>;
export type SvcSsoCodeExchangeInput = z.output<typeof svcSsoCodeExchangeRequestSchema>;
