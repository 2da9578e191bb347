import type { ClientRepository } from '../directory/repository.js';
import type { Clock } from '../kernel/clock.js';
import { ClientCredentialsGrant } from '../oauth/token/client-credentials.js';
import { TokenEndpoint } from '../oauth/token/token-endpoint.js';
import type { TokenService } from '../oauth/tokens/token-service.js';
import type { AuthEngine } from './wire-auth.js';
import type { DeviceWiring } from './wire-device.js';

/** POST /token: every grant over the token engine, the device flow and the clients. */
export function wireTokenEndpoint(ctx: {
  clients: Pick<ClientRepository, 'findByClientId' | 'markFirstUse'>;
  engine: Pick<AuthEngine, 'clientSecrets' | 'rejectedTokens' | 'tokens'>;
  tokens: TokenService;
  device: Pick<DeviceWiring, 'devices'>;
  clock: Clock;
}): TokenEndpoint {
  const { clients, engine } = ctx;
  return new TokenEndpoint({
    findClient: (id) => clients.findByClientId(id),
    rejectedSecrets: engine.clientSecrets,
    rejectedTokens: engine.rejectedTokens,
    codes: engine.tokens.codes,
    refresh: engine.tokens.refresh,
    clientCredentials: new ClientCredentialsGrant({ tokens: ctx.tokens }),
    devices: ctx.device.devices,
    markFirstUse: (clientId) => clients.markFirstUse(clientId, ctx.clock.now()),
  });
}
