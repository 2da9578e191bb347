import { z } from 'zod';
import { emailSchema } from './admin.js';
import { clientIdSchema, clientSecretField, svcLoginResultSchema } from './auth.js';
import { nullable, optionalText, recordIdSchema } from './fields.js';
import {
  appCodeChallengeMethodSchema,
  appCodeChallengeSchema,
  appCodeVerifierSchema,
  appStateSchema,
  printable,
} from './app-checks.js';
import { callbackUriSchema, OIDC_AUTHENTICATION_METHODS, OIDC_PROVIDER_TYPES } from './oidc-connections.js';

/**
 * The sign-in of a first-party app through an OpenID / social provider, the app holding its own state,
 * nonce and PKCE verifier (docs/reference/federation.md "First-party apps"): POST /oidc/authorization-url,
 * POST /oidc/exchange and the in-process
 * StartAuthorizationAsync, CompleteAuthorizationAsync and CompleteExternalLoginAsync. camelCase, not
 * strict (unknown keys are ignored); each request carries the optional `clientSecret` of a confidential
 * client (docs/reference/sign-in.md "Direct JSON helpers").
 */

/**
 * The OIDC start request {connectionId, email, clientId, callbackUri, state, nonce, codeChallenge,
 * codeChallengeMethod}. `callbackUri` must be one of the connection's allowed callback URIs, exactly;
 * `email`, when given, is the provider's `login_hint`. The app keeps `state`, `nonce` and the verifier
 * of `codeChallenge` (S256 only, docs/reference/limits.md "Sizes and lengths": exactly 43 base64url characters). The optional
 * ipAddress is the call context's, never the body's.
 */
export const svcOidcStartRequestSchema = z.object({
  connectionId: recordIdSchema,
  email: optionalText(emailSchema),
  clientId: nullable(clientIdSchema),
  clientSecret: clientSecretField,
  callbackUri: callbackUriSchema,
  state: appStateSchema,
  nonce: printable(512),
  codeChallenge: appCodeChallengeSchema,
  codeChallengeMethod: appCodeChallengeMethodSchema,
});
export type SvcOidcStartRequest = z.input<typeof svcOidcStartRequestSchema>;
export type SvcOidcStartInput = z.output<typeof svcOidcStartRequestSchema>;

/** The start's answer: where to send the user, and the provider it is. */
export const svcOidcStartResultSchema = z.object({
  authorizationUrl: z.string(),
  connectionId: z.string(),
  providerType: z.enum(OIDC_PROVIDER_TYPES),
  displayName: z.string(),
});
export type SvcOidcStartResult = z.output<typeof svcOidcStartResultSchema>;

/**
 * The OIDC complete request {connectionId, clientId, callbackUri, code, codeVerifier, nonce,
 * userPayloadJson}, plus the callback's `iss` (RFC 9207) when the app has it. The app compared the
 * callback's state itself; `callbackUri` and `codeVerifier` must be those of the start (the provider
 * checks them when the code is redeemed), `nonce` the one the ID token carries. `userPayloadJson` is
 * Apple's first-login `user` form field (only the name is read; ignored for other providers).
 */
export const svcOidcCompleteRequestSchema = z.object({
  connectionId: recordIdSchema,
  clientId: nullable(clientIdSchema),
  clientSecret: clientSecretField,
  callbackUri: callbackUriSchema,
  code: printable(2048),
  codeVerifier: appCodeVerifierSchema,
  nonce: printable(512),
  // Passed on as the app received it; an empty or unreadable one is ignored, like a missing one.
  userPayloadJson: nullable(z.string().max(4096)),
  iss: optionalText(printable(2048)),
});
export type SvcOidcCompleteRequest = z.input<typeof svcOidcCompleteRequestSchema>;
export type SvcOidcCompleteInput = z.output<typeof svcOidcCompleteRequestSchema>;

/**
 * The OIDC complete result: the account the provider identity signs in as (created now, or linked
 * before). `organizationId` is set only when the user has exactly one organization. No session, no tokens.
 */
export const svcOidcCompleteResultSchema = z.object({
  userId: z.string(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  displayName: z.string(),
  organizationId: z.string().nullable(),
  authenticationMethod: z.enum(OIDC_AUTHENTICATION_METHODS),
  organizationCount: z.number().int().nonnegative(),
  userCreated: z.boolean(),
  connectionId: z.string(),
});
export type SvcOidcCompleteResult = z.output<typeof svcOidcCompleteResultSchema>;

/**
 * CompleteExternalLoginAsync: signs in a user whom a provider sign-in completed
 * (CompleteAuthorizationAsync's `userId` and `authenticationMethod`) at a first-party client, through the
 * same engine as password login. `organizationId`, when set, skips organization selection. In-process
 * only: the host vouches for `userId`, as for CreateSessionTokensForUserAsync.
 */
export const svcExternalLoginRequestSchema = z.object({
  userId: recordIdSchema,
  clientId: nullable(clientIdSchema),
  clientSecret: clientSecretField,
  authenticationMethod: z.enum(OIDC_AUTHENTICATION_METHODS),
  organizationId: nullable(recordIdSchema),
});
export type SvcExternalLoginRequest = z.input<typeof svcExternalLoginRequestSchema>;

/** POST /oidc/exchange: the completion and the sign-in (tokens, or organization selection or MFA). */
export const svcOidcExchangeResultSchema = svcOidcCompleteResultSchema.extend(svcLoginResultSchema.shape);
export type SvcOidcExchangeResult = z.output<typeof svcOidcExchangeResultSchema>;
