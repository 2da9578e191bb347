import type { ClientRecord } from '../../directory/repository.js';
import {
  admissionError,
  type ClientMetadataDocuments,
} from '../clients/metadata-documents/client-metadata-documents.js';
import { FormParameters } from '../token/form-parameters.js';
import { authenticatedClient, type TokenGrantDeps } from '../token/grant-context.js';
import type { DeviceAuthorizations } from './device-authorizations.js';
import type { DeviceAuthorizationStarted } from './device-outcomes.js';

/** The body of a device authorization response (RFC 8628 §3.2; docs/reference/tokens-and-sessions.md "Device authorization grant"). */
export interface DeviceAuthorizationResponseBody {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export interface DeviceAuthorizationEndpointDeps {
  /** The client registered under a client_id (active or not), or undefined. */
  findClient(clientId: string): Promise<ClientRecord | undefined>;
  /** Rejected client secrets per client and address (config.failureLimits.clientSecretIp). */
  readonly rejectedSecrets: TokenGrantDeps['rejectedSecrets'];
  readonly devices: Pick<DeviceAuthorizations, 'start'>;
  /** Client ID Metadata Documents, fetched for a URL client_id; absent while they are off. */
  readonly clientDocuments?: Pick<ClientMetadataDocuments, 'admit'> | undefined;
}

/** One POST /device_authorization as the route hands it over. */
export interface DeviceAuthorizationEndpointRequest {
  /** The parsed form body; undefined for a request without one. */
  readonly body: unknown;
  readonly authorizationHeader?: string | undefined;
  readonly ipAddress?: string | undefined;
}

/** The snake_case wire form of a started request. */
export function toDeviceAuthorizationResponse(
  started: DeviceAuthorizationStarted,
): DeviceAuthorizationResponseBody {
  return {
    device_code: started.deviceCode,
    user_code: started.userCode,
    verification_uri: started.verificationUri,
    verification_uri_complete: started.verificationUriComplete,
    expires_in: started.expiresIn,
    interval: started.interval,
  };
}

/**
 * POST /device_authorization (RFC 8628 §3.1; docs/reference/tokens-and-sessions.md "Device authorization grant": form: client_id, scope, resource). The form is
 * read as at /token (a repeated parameter other than `resource` is invalid_request; empty values count
 * as omitted); the client identifies itself as at /token (RFC 8628 §3.1: "client_id REQUIRED if the
 * client is not authenticating"): a public client by client_id, a confidential client with its
 * registered method, unknown, inactive or failed → 401 invalid_client. The rest is the service's
 * (DeviceAuthorizations.start). Failures are thrown OAuthErrors.
 */
export class DeviceAuthorizationEndpoint {
  readonly #deps: DeviceAuthorizationEndpointDeps;

  constructor(deps: DeviceAuthorizationEndpointDeps) {
    this.#deps = deps;
  }

  async authorize(request: DeviceAuthorizationEndpointRequest): Promise<DeviceAuthorizationResponseBody> {
    const params = FormParameters.from(request.body);
    await this.#admit(params.get('client_id'), request.ipAddress ?? null);
    const { client } = await authenticatedClient(
      {
        authorizationHeader: request.authorizationHeader,
        bodyClientId: params.get('client_id'),
        bodyClientSecret: params.get('client_secret'),
        ipAddress: request.ipAddress ?? null,
      },
      this.#deps,
    );
    const started = await this.#deps.devices.start({
      client,
      scope: params.get('scope'),
      resources: params.all('resource'),
      ipAddress: request.ipAddress ?? null,
    });
    return toDeviceAuthorizationResponse(started);
  }

  /** A URL client_id's document, fetched when there is no fresh copy; a refusal is invalid_client (or 429). */
  async #admit(clientId: string | undefined, ipAddress: string | null): Promise<void> {
    if (clientId === undefined) return;
    const admission = await this.#deps.clientDocuments?.admit(clientId, { ipAddress });
    if (admission?.kind === 'refused') throw admissionError(admission);
  }
}
