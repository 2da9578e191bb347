// The Svc child of `npm run bench`: createSvc on a fresh database (SQLite in a temp folder, or the
// PostgreSQL URL in BENCH_DATABASE_URL), seeded through the admin facade, listening on loopback.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSvc } from '@svc/server';
import { API_AUDIENCE, CC_CLIENT, USER, WEB_CLIENT } from './fixtures.mjs';
import { freePort, serveRpc } from './rpc.mjs';
import { runConcurrently } from './micro.mjs';

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const port = await freePort();
const svc = await createSvc(
  {
    databaseUrl: process.env.BENCH_DATABASE_URL || `sqlite:${join(dataDir, 'svc.db')}`,
    dataDir,
    host: '127.0.0.1',
    port,
    publicOrigin: `http://127.0.0.1:${port}`,
    logLevel: false,
    keyRotationSchedule: false,
  },
  { env: {} },
);
const address = await svc.listen();
await svc.admin.createClientAsync({
  clientId: WEB_CLIENT.clientId,
  name: 'Bench web app',
  redirectUris: [WEB_CLIENT.redirectUri],
  audience: API_AUDIENCE,
  isFirstParty: true,
  allowedScopes: WEB_CLIENT.scope.split(' '),
});
const cc = await svc.admin.createClientAsync({
  clientId: CC_CLIENT.clientId,
  name: 'Bench service',
  redirectUris: ['https://app.example.com/unused'],
  audience: API_AUDIENCE,
  allowClientCredentials: true,
  tokenEndpointAuthMethod: 'client_secret_basic',
  allowedScopes: [CC_CLIENT.scope],
});
const user = await svc.admin.createUserAsync({
  email: USER.email,
  displayName: USER.name,
  password: USER.password,
});

const sessionTokens = () =>
  svc.auth.createSessionTokensForUserAsync(user, WEB_CLIENT.clientId, null, 'pwd', null, null);

serveRpc(
  {
    /** `n` refresh tokens of independent sessions (the pool the refresh scenario rotates). */
    async refreshTokens({ n }) {
      const tokens = [];
      for (let i = 0; i < n; i += 1) tokens.push((await sessionTokens()).refreshToken);
      return tokens;
    },
    /** An access token of a session with `openid` (userinfo and the in-process validation). */
    async accessToken() {
      return (await sessionTokens()).accessToken;
    },
    /** In-process validateAccessTokenAsync for `durationMs` with `concurrency` calls in flight. */
    async validateOps({ durationMs, concurrency }) {
      const token = (await sessionTokens()).accessToken;
      if ((await svc.auth.validateAccessTokenAsync(token, API_AUDIENCE)) === null)
        throw new Error('validateAccessTokenAsync refused the bench token');
      return runConcurrently(() => svc.auth.validateAccessTokenAsync(token, API_AUDIENCE), {
        durationMs,
        concurrency,
      });
    },
  },
  {
    base: `${address}${svc.config.authBase}`,
    origin: svc.config.publicOrigin,
    issuer: svc.config.issuer,
    ccSecret: cc.clientSecret,
  },
  async () => {
    await svc.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
);
