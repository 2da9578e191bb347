import { z } from 'zod';
import { clientIdSchema, opaqueTokenSchema, type SvcTokenResponse } from './auth.js';

/**
 * The records of the in-process device operations (docs/reference/tokens-and-sessions.md "Device authorization grant" StartDeviceAuthorizationAsync,
 * ResolveDeviceAuthorizationAsync, ApproveDeviceAuthorizationAsync, PollDeviceAuthorizationAsync and the
 * deny beside them), camelCase as every in-process record. Requests are validated like the direct
 * helpers' (400 SvcValidationError naming the field).
 */

const nullableText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((value) => value ?? null);

const idSchema = z.string().min(1).max(200);

/** As typed by a user: normalized by the service (case, spaces and dashes do not matter). */
export const userCodeInputSchema = z.string().min(1).max(64);

/** An RFC 8176 method name as sessions store it (`pwd`, `otp`, `mfa`, …). */
const amrValueSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, { message: 'must be a method name' });

export const svcDeviceAuthorizationStartRequestSchema = z.object({
  clientId: clientIdSchema,
  /** Space-separated; intersected with the client's allow-list (unknown scopes dropped). */
  scope: nullableText(2048),
  /** One RFC 8707 resource the client may have; bound to the request. */
  resource: nullableText(2048),
});
export type SvcDeviceAuthorizationStartRequest = z.input<typeof svcDeviceAuthorizationStartRequestSchema>;
/** SvcDeviceAuthorizationStartRequest as the schema parses it: what the services take. */
export type SvcDeviceAuthorizationStartInput = z.output<typeof svcDeviceAuthorizationStartRequestSchema>;

export const svcApproveDeviceAuthorizationRequestSchema = z.object({
  userCode: userCodeInputSchema,
  /** The signed-in user the host vouches for. */
  userId: idSchema,
  /** Null for a user-scoped session; else an organization the user is an active member of. */
  organizationId: idSchema.nullish().transform((value) => value ?? null),
  /** How the user signed in; none recorded when omitted. */
  amr: z.array(amrValueSchema).max(10).optional(),
  /** ISO-8601 time of the user's original authentication; now when omitted. */
  authTime: z.iso.datetime({ offset: true }).optional(),
});
export type SvcApproveDeviceAuthorizationRequest = z.input<typeof svcApproveDeviceAuthorizationRequestSchema>;
/** SvcApproveDeviceAuthorizationRequest as the schema parses it: what the services take. */
export type SvcApproveDeviceAuthorizationInput = z.output<typeof svcApproveDeviceAuthorizationRequestSchema>;

export const svcDenyDeviceAuthorizationRequestSchema = z.object({
  userCode: userCodeInputSchema,
  /** The signed-in user who denies, when someone is signed in. */
  userId: idSchema.nullish().transform((value) => value ?? null),
});
export type SvcDenyDeviceAuthorizationRequest = z.input<typeof svcDenyDeviceAuthorizationRequestSchema>;
/** SvcDenyDeviceAuthorizationRequest as the schema parses it: what the services take. */
export type SvcDenyDeviceAuthorizationInput = z.output<typeof svcDenyDeviceAuthorizationRequestSchema>;

export const svcPollDeviceAuthorizationRequestSchema = z.object({
  clientId: clientIdSchema,
  deviceCode: opaqueTokenSchema,
  /** When sent, must equal the resource bound at start. */
  resource: nullableText(2048),
});
export type SvcPollDeviceAuthorizationRequest = z.input<typeof svcPollDeviceAuthorizationRequestSchema>;
/** SvcPollDeviceAuthorizationRequest as the schema parses it: what the services take. */
export type SvcPollDeviceAuthorizationInput = z.output<typeof svcPollDeviceAuthorizationRequestSchema>;

/**
 * Where a request stands for the user who typed its code. `approved` also covers a request whose tokens
 * were issued; `expired` wins over every other state once the lifetime has passed.
 */
export type DeviceAuthorizationViewStatus = 'pending' | 'approved' | 'denied' | 'expired';

/**
 * The outcome of an approval or denial: `approved` / `denied` when this call decided; `not_found` for a
 * code that is malformed or names no request; `expired`; `already_decided` when the request was approved
 * or denied before.
 */
export type DeviceDecisionStatus = 'approved' | 'denied' | 'not_found' | 'expired' | 'already_decided';

/** The OAuth error codes a poll can answer with (RFC 8628 §3.5, RFC 6749 §5.2, RFC 8707). */
export type DevicePollRefusalStatus =
  | 'authorization_pending'
  | 'access_denied'
  | 'expired_token'
  | 'invalid_grant'
  | 'invalid_client'
  | 'unauthorized_client'
  | 'invalid_target';

/** StartDeviceAuthorizationAsync's answer: the device authorization response (RFC 8628 §3.2) in camelCase. */
export interface SvcDeviceAuthorizationResponse {
  readonly deviceCode: string;
  readonly userCode: string;
  readonly verificationUri: string;
  readonly verificationUriComplete: string;
  readonly expiresIn: number;
  readonly interval: number;
}

/** ResolveDeviceAuthorizationAsync's answer for a known user code. */
export interface SvcDeviceAuthorization {
  readonly clientId: string;
  readonly clientName: string;
  readonly scopes: string[];
  readonly resource: string | null;
  /** `XXXX-XXXX`. */
  readonly userCode: string;
  /** ISO-8601. */
  readonly expiresAt: string;
  readonly status: DeviceAuthorizationViewStatus;
}

/** The answer of an approval or denial. */
export interface SvcDeviceDecisionResult {
  readonly status: DeviceDecisionStatus;
}

/** PollDeviceAuthorizationAsync's answer: a status, never a throw for an expected outcome. */
export type SvcDevicePollResult =
  | { readonly status: 'complete'; readonly tokens: SvcTokenResponse }
  | { readonly status: 'slow_down'; readonly interval: number; readonly description: string }
  | { readonly status: DevicePollRefusalStatus; readonly description: string };
