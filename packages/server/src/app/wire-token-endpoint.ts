import type { ClientRepository } from '../directory/repository.js';
import type { Clock } from '../kernel/clock.js';
import { ClientCredentialsGrant } from '../oauth/token/client-credentials.js';
import { TokenEndpoint } from '../oauth/token/token-endpoint.js';
import type { TokenService } from '../oauth/tokens/token-service.js';
import type { RejectedSecretLimit } from '../ratelimit/rejected-secret-limit.js';
import type { TokenEngine } from '../oauth/tokens/token-engine.js';
import type { DeviceWiring } from './wire-device.js';

/** POST /token: every grant over the token engine, the device flow and the clients. */
export function wireTokenEndpoint(ctx: {
  clients: Pick<ClientRepository, 'findByClientId' | 'markFirstUse'>;
  /** Rejected client secrets, and unknown codes and tokens, per client address. */
  clientSecrets: RejectedSecretLimit;
  rejectedTokens: RejectedSecretLimit;
  tokenEngine: Pick<TokenEngine, 'codes' | 'refresh'>;
  tokens: TokenService;
  device: Pick<DeviceWiring, 'devices'>;
  clock: Clock;
}): TokenEndpoint {
  const { clients, tokenEngine } = ctx;
  return new TokenEndpoint({
    findClient: (id) => clients.findByClientId(id),
    rejectedSecrets: ctx.clientSecrets,
    rejectedTokens: ctx.rejectedTokens,
    codes: tokenEngine.codes,
    refresh: tokenEngine.refresh,
    clientCredentials: new ClientCredentialsGrant({ tokens: ctx.tokens }),
    devices: ctx.device.devices,
    markFirstUse: (clientId) => clients.markFirstUse(clientId, ctx.clock.now()),
  });
}
