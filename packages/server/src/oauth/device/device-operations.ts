import type {
  SvcApproveDeviceAuthorizationInput,
  SvcDenyDeviceAuthorizationInput,
  SvcDeviceAuthorization,
  SvcDeviceAuthorizationResponse,
  SvcDeviceAuthorizationStartInput,
  SvcDeviceDecisionResult,
  SvcDevicePollResult,
  SvcPollDeviceAuthorizationInput,
} from '@svc/contract';
import { toIso } from '../../kernel/clock.js';
import type { Clock } from '../../kernel/clock.js';
import { retryAfterPhrase, SvcTooManyAttemptsError } from '../../kernel/errors.js';
import type { RateLimiter } from '../../ratelimit/rate-limiter.js';
import type { RateLimitPolicy } from '../../ratelimit/rules.js';
import { toSvcTokenResponse } from '../tokens/issued-tokens.js';
import type { DeviceAuthorizations } from './device-authorizations.js';

/**
 * Where an in-process call comes from: the start's rate limit and audit use the address, and so does the
 * limit of user codes that resolve, approve and deny count (the hosted /device page's, per address).
 */
export interface DeviceCallContext {
  readonly ipAddress?: string;
  readonly userAgent?: string;
}

/**
 * The in-process device operations of SvcAuthService: take the request records the facade parsed, call
 * the service, and shape the answers (camelCase, ISO timestamps, SvcTokenResponse). Errors of start are the OAuth
 * errors of POST /device_authorization (invalid_client, unauthorized_client, invalid_target,
 * slow_down); approval by an inactive user or for a foreign organization is SvcPublicAuthError
 * access_denied (403); every other outcome is a status value.
 */
export class DeviceOperations {
  readonly #devices: DeviceAuthorizations;
  readonly #clock: Clock;
  readonly #rateLimiter: Pick<RateLimiter, 'consume'>;
  readonly #verifyLimit: RateLimitPolicy;

  /** `verifyLimit`: `config.rateLimits.deviceVerify`, the hosted /device page's limit of typed codes. */
  constructor(deps: {
    devices: DeviceAuthorizations;
    clock: Clock;
    rateLimiter: Pick<RateLimiter, 'consume'>;
    verifyLimit: RateLimitPolicy;
  }) {
    this.#devices = deps.devices;
    this.#clock = deps.clock;
    this.#rateLimiter = deps.rateLimiter;
    this.#verifyLimit = deps.verifyLimit;
  }

  /** StartDeviceAuthorizationAsync. */
  async startDeviceAuthorization(
    input: SvcDeviceAuthorizationStartInput,
    context?: DeviceCallContext,
  ): Promise<SvcDeviceAuthorizationResponse> {
    const started = await this.#devices.startForClientId(input, context?.ipAddress ?? null);
    return {
      deviceCode: started.deviceCode,
      userCode: started.userCode,
      verificationUri: started.verificationUri,
      verificationUriComplete: started.verificationUriComplete,
      expiresIn: started.expiresIn,
      interval: started.interval,
    };
  }

  /**
   * ResolveDeviceAuthorizationAsync: null for a malformed or unknown user code. With the caller's
   * address, each call counts against it as a code typed at /device does (429 past the limit).
   */
  async resolveDeviceAuthorization(
    userCode: string,
    context?: DeviceCallContext,
  ): Promise<SvcDeviceAuthorization | null> {
    await this.#countTypedCode(context);
    const view = await this.#devices.resolve(userCode);
    if (view === null) return null;
    return { ...view, scopes: [...view.scopes], expiresAt: toIso(view.expiresAt) };
  }

  /** ApproveDeviceAuthorizationAsync. */
  async approveDeviceAuthorization(
    input: SvcApproveDeviceAuthorizationInput,
    context?: DeviceCallContext,
  ): Promise<SvcDeviceDecisionResult> {
    await this.#countTypedCode(context);
    const status = await this.#devices.approve({
      userCode: input.userCode,
      userId: input.userId,
      organizationId: input.organizationId,
      amr: input.amr ?? [],
      authTime: input.authTime === undefined ? this.#clock.now() : Date.parse(input.authTime),
    });
    return { status };
  }

  /** The deny beside ApproveDeviceAuthorizationAsync: polling then answers access_denied. */
  async denyDeviceAuthorization(
    input: SvcDenyDeviceAuthorizationInput,
    context?: DeviceCallContext,
  ): Promise<SvcDeviceDecisionResult> {
    await this.#countTypedCode(context);
    return { status: await this.#devices.deny(input) };
  }

  /** PollDeviceAuthorizationAsync: `complete` with tokens once, otherwise the OAuth status of the poll. */
  async pollDeviceAuthorization(
    input: SvcPollDeviceAuthorizationInput,
    context?: DeviceCallContext,
  ): Promise<SvcDevicePollResult> {
    const result = await this.#devices.pollForClientId({
      clientId: input.clientId,
      deviceCode: input.deviceCode,
      resource: input.resource,
      userAgent: context?.userAgent ?? null,
      ipAddress: context?.ipAddress ?? null,
    });
    return result.status === 'complete'
      ? { status: 'complete', tokens: toSvcTokenResponse(result.tokens) }
      : result;
  }

  /**
   * A user code is a secret a guesser tries (RFC 8628 §5.1): with the caller's address, counted as the
   * hosted page counts one. Without one (a host that names none) nothing is counted.
   */
  async #countTypedCode(context: DeviceCallContext | undefined): Promise<void> {
    if (context?.ipAddress === undefined) return;
    const decision = await this.#rateLimiter.consume(this.#verifyLimit, { ip: context.ipAddress });
    if (!decision.allowed) {
      throw new SvcTooManyAttemptsError(
        `Too many user codes were tried from this address; try again ${retryAfterPhrase(decision.retryAfterMs)}.`,
        decision.retryAfterMs,
        { error: 'rate_limited' },
      );
    }
  }
}
