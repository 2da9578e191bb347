// The Svc child of `npm run bench`: createSvc on a fresh database (SQLite in a temp folder, or the
// PostgreSQL URL in BENCH_DATABASE_URL), seeded through the admin facade, listening on loopback. It runs
// as users run it: the parent starts it with NODE_ENV=production, and apart from what the bench needs
// (a database, an address, an operator token, the guessing limits below) the configuration is the
// default one, logging included; BENCH_ACCESS_LOG=1 turns the access log on. For `--seed-large` the
// parent asks it to fill its database with seed-large.mjs (rpc `seedLarge`). With BENCH_DATA_DIR it keeps
// its SQLite database and master key in that folder and leaves them there when it stops, and
// BENCH_SECRET_KEY is its master key on PostgreSQL: the `svc serve --workers` row (workers.mjs) serves the
// database it seeded.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSvc } from '@svc/server';
import pg from 'pg';
import { LARGE_SEED, seedLarge } from '../seed-large.mjs';
import { API_AUDIENCE, CC_CLIENT, USER, WEB_CLIENT } from './fixtures.mjs';
import { freePort, serveRpc } from './rpc.mjs';
import { runConcurrently } from './micro.mjs';
import { seedFgaBench } from './fga.mjs';

const keptDataDir = process.env.BENCH_DATA_DIR || undefined;
const dataDir = keptDataDir ?? mkdtempSync(join(tmpdir(), 'svc-bench-'));
const port = await freePort();
const adminToken = randomBytes(32).toString('base64url');
const postgresUrl = process.env.BENCH_DATABASE_URL;
const svc = await createSvc(
  {
    databaseUrl: postgresUrl || `sqlite:${join(dataDir, 'svc.db')}`,
    dataDir,
    host: '127.0.0.1',
    port,
    publicOrigin: `http://127.0.0.1:${port}`,
    // Production on PostgreSQL requires the master key every node shares (on SQLite one is generated).
    ...(postgresUrl ? { secretKey: process.env.BENCH_SECRET_KEY || randomBytes(32).toString('hex') } : {}),
    accessLog: process.env.BENCH_ACCESS_LOG === '1',
    keyRotationSchedule: false,
    adminToken,
    // Password login signs one account in from one address over 10 to 50 connections at once. A
    // password check is counted before it runs (and taken back when it succeeds), so the default limits
    // on guessing would refuse the checks in flight beyond 5; raised, every check is still counted, so
    // its cost is measured, and none is refused.
    failureLimits: {
      passwordAccountIp: { threshold: 1000 },
      passwordAccount: { threshold: 1000 },
      passwordIp: { threshold: 1000 },
    },
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

/** The FGA model of the fga_check row, built on its first run. */
let fgaBench;

const sessionTokens = () =>
  svc.auth.createSessionTokensForUserAsync(user, WEB_CLIENT.clientId, null, 'pwd', null, null);

serveRpc(
  {
    /**
     * Fills the database with `counts` rows (default LARGE_SEED; every seeded user gets the bench user's
     * password hash, so `seededEmail(i)` signs in with USER.password); notifies the parent after every
     * transaction.
     */
    async seedLarge({ counts = LARGE_SEED } = {}, notify) {
      const { db } = svc.database;
      const { passwordHash } = await db
        .selectFrom('users')
        .select('passwordHash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      const started = performance.now();
      await seedLarge(db, {
        passwordHash,
        clientId: WEB_CLIENT.clientId,
        counts,
        onProgress: (table, done, total) =>
          notify(
            `seeding ${table}: ${done.toLocaleString('en')}/${total.toLocaleString('en')} ` +
              `(${Math.round((performance.now() - started) / 1000)} s)`,
          ),
      });
      // PostgreSQL's autovacuum would analyze the new rows within a minute; do it now so that the timed
      // runs see the plans a running deployment has. SQLite keeps no statistics unless asked (as Svc does).
      if (svc.database.dialect === 'postgres') {
        const client = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
        await client.connect();
        await client.query('ANALYZE').finally(() => client.end());
      }
      return { ...counts, seconds: (performance.now() - started) / 1000 };
    },
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
    /**
     * Svc's own RS256 JWT signature (TokenService.sign: the JWS assembled on the event loop, signed on
     * Svc's signing thread), one at a time like the jose unit cost; the CPU is this child's, every thread.
     */
    async signOps({ durationMs }) {
      return runConcurrently(
        () =>
          svc.tokens.sign(
            { client_id: WEB_CLIENT.clientId, scope: WEB_CLIENT.scope, sid: 'ses_0123456789abcdef' },
            { typ: 'at+jwt', subject: user.id, audience: API_AUDIENCE, expiresInSeconds: 900 },
          ),
        { durationMs },
      );
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
    /**
     * In-process svc.fga.checkAsync for `durationMs` with `concurrency` calls in flight, cycling through
     * the checks of fga.mjs, with each call's duration (p50, p99).
     */
    async fgaCheckOps({ durationMs, concurrency }) {
      fgaBench ??= await seedFgaBench(svc, { adminApi: `${address}/svc/admin/fga/api`, adminToken });
      const { checks } = fgaBench;
      // Warm the node's cache as a running host app has it, then time.
      for (const check of checks) await svc.fga.checkAsync(check);
      const result = await runConcurrently((i) => svc.fga.checkAsync(checks[i % checks.length]), {
        durationMs,
        concurrency,
        latencies: true,
      });
      return { ...result, resources: fgaBench.resources };
    },
  },
  {
    base: `${address}${svc.config.authBase}`,
    origin: svc.config.publicOrigin,
    issuer: svc.config.issuer,
    ccSecret: cc.clientSecret,
    adminApi: `${address}${svc.config.adminAuthBase}/api`,
    adminToken,
  },
  async () => {
    await svc.close();
    if (keptDataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
  },
);
