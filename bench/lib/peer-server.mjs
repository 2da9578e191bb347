// The peer child of `npm run bench`: panva/node-oidc-provider configured like Svc (RS256 with an
// RSA-2048 key, JWT access tokens for the API through resource indicators, rotating refresh tokens
// issued to every code-flow client, ID tokens on refresh, PKCE) on the SQLite adapter of this folder.
// The interaction route signs the bench user in and grants what is asked: codes can then be minted
// over plain HTTP ahead of the timed window.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Provider from 'oidc-provider';
import { API_AUDIENCE, CC_CLIENT, USER, WEB_CLIENT } from './fixtures.mjs';
import { sqliteAdapter } from './peer-adapter.mjs';
import { freePort, serveRpc } from './rpc.mjs';

const ACCOUNT_ID = 'usr_bench';
const dataDir = mkdtempSync(join(tmpdir(), 'peer-bench-'));
const port = await freePort();
const issuer = `http://127.0.0.1:${port}`;
const ccSecret = randomBytes(32).toString('base64url');
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'bench-rs256', alg: 'RS256', use: 'sig' };
const updatedAt = Math.floor(Date.now() / 1000);

const provider = new Provider(issuer, {
  adapter: sqliteAdapter(join(dataDir, 'peer.db')),
  clients: [
    {
      client_id: WEB_CLIENT.clientId,
      token_endpoint_auth_method: 'none',
      redirect_uris: [WEB_CLIENT.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    },
    {
      client_id: CC_CLIENT.clientId,
      client_secret: ccSecret,
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope: CC_CLIENT.scope,
    },
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
  scopes: ['openid', 'offline_access', 'profile', 'email', 'read'],
  claims: {
    openid: ['sub'],
    profile: ['name', 'preferred_username', 'updated_at'],
    email: ['email', 'email_verified'],
  },
  findAccount: async (_ctx, sub) =>
    sub !== ACCOUNT_ID
      ? undefined
      : {
          accountId: sub,
          claims: async () => ({
            sub,
            name: USER.name,
            preferred_username: USER.email,
            updated_at: updatedAt,
            email: USER.email,
            email_verified: true,
          }),
        },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    userinfo: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // client_credentials gets the API by default; the code flow names it (userinfo tokens do not).
      defaultResource: (_ctx, client) => (client.clientId === CC_CLIENT.clientId ? API_AUDIENCE : undefined),
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope: 'read',
        audience: API_AUDIENCE,
        accessTokenTTL: 15 * 60,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
  // Svc issues a refresh token to every code-flow client and rotates it on every use.
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
  rotateRefreshToken: true,
  ttl: {
    AccessToken: 15 * 60,
    AuthorizationCode: 10 * 60,
    ClientCredentials: 15 * 60,
    IdToken: 15 * 60,
    Grant: 30 * 24 * 60 * 60,
    Interaction: 60 * 60,
    RefreshToken: 30 * 24 * 60 * 60,
    Session: 14 * 24 * 60 * 60,
  },
});

/** Signs the bench user in (login prompt) or grants what the consent prompt lists. */
async function finishInteraction(request, response) {
  const details = await provider.interactionDetails(request, response);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(request, response, { login: { accountId: ACCOUNT_ID } });
    return;
  }
  const grant =
    details.grantId === undefined
      ? new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id })
      : await provider.Grant.find(details.grantId);
  const missing = details.prompt.details;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  await provider.interactionFinished(request, response, { consent: { grantId: await grant.save() } });
}

const callback = provider.callback();
const server = createServer((request, response) => {
  if (!request.url.startsWith('/interaction/')) return callback(request, response);
  finishInteraction(request, response).catch((error) => {
    response.statusCode = 500;
    response.end(String(error));
  });
});
await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));

serveRpc({}, { base: issuer, origin: issuer, issuer, ccSecret }, async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});
