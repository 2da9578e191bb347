import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ambiguousCommitEvidence, familiesWithTwoLiveTokens } from '../test-support/database-evidence.js';
import { DatabaseFaultRun } from '../test-support/fault-run.js';
import {
  describeAnswer,
  FaultTimeline,
  listOffenders,
  summarize,
  type Answer,
} from '../test-support/fault-timeline.js';
import { PostgresFreezer } from '../test-support/postgres-controls.js';
import {
  findPostgresBin,
  freePort,
  launchPostgres,
  type LaunchedPostgres,
} from '../test-support/postgres-launcher.js';
import { assertCliBuilt, SvcProcess, waitUntilReady } from '../test-support/svc-processes.js';
import { SessionCalls } from '../test-support/timed-calls.js';
import { TokenLoad, type Credentials } from '../test-support/token-load.js';
import { testTempRoot } from '../test-support/test-temp.js';

/**
 * Database faults under load (issue 25 item 6): three `svc serve` processes on one PostgreSQL, six
 * virtual clients refreshing and validating tokens across the nodes, while the test restarts the
 * database, stops it for 6 s, freezes it (SIGSTOP) for 6 s, then rotates the signing key from the CLI.
 * Separate OS processes, unlike scale-out.test.ts: what is under test is how a process lives through a
 * dead connection (an unhandled pool error ends it) and how long it waits, which in-process nodes
 * sharing the test's event loop would hide.
 *
 * The run is the fixture (beforeAll); each property of it is one test, so a report lists every property
 * that fails, each with the offending answers.
 */
const NODES = 3;
const CLIENTS = 6;
/** Each client's pause between answered cycles: about 30 cycles a second each, always some in flight. */
const THINK_MS = 25;
const IDLE_SESSIONS = 3;
const DB_TIMEOUTS = { connect: 1_000, statement: 2_000, idleInTransaction: 5_000 };
const REQUEST_TIMEOUT_MS = 8_000;
/** A refusal comes as soon as the node's own limits expire: connect + statement timeout, and a margin. */
const MAX_REFUSAL_MS = DB_TIMEOUTS.connect + DB_TIMEOUTS.statement + 1_500;
/** Healthy load before the first fault. */
const BASELINE_MS = 3_000;
/** Healthy load after each fault window, before the next fault. */
const HEALTHY_MS = 2_000;
/** Longer than a node's own limits (connect + statement), so that each refusal shows at their end. */
const OUTAGE_MS = 6_000;
/** From this long after the database's return, every answer must be a success again. */
const GRACE_MS = 2_000;
const AFTER_ROTATION_MS = 5_000;
const RECOVERY_POLL_LIMIT_MS = 10_000;
const PROBE_MS = 1_000;
const ADMIN_TOKEN = randomBytes(24).toString('base64url');
const SECRET_KEY = randomBytes(32).toString('hex');
const PASSWORD = 'correct horse battery staple';
const user = (name: string): Credentials => ({ email: `${name}@faults.example`, password: PASSWORD });
/** One account per virtual client, per idle-session slot and for the node probe (see TokenLoadTarget.users). */
const CLIENT_USERS = Array.from({ length: CLIENTS }, (_, i) => user(`client-${i}`));
const IDLE_USERS = Array.from({ length: IDLE_SESSIONS }, (_, i) => user(`idle-${i}`));
const PROBE_USER = user('probe');
const CLIENT_ID = 'faults-app';

const postgresBin = findPostgresBin();
if (postgresBin === undefined && process.env.SVC_REQUIRE_POSTGRES === '1') {
  throw new Error('SVC_REQUIRE_POSTGRES=1 but no PostgreSQL binaries were found (initdb, pg_ctl).');
}
const skipReason = postgresBin === undefined ? 'no PostgreSQL binaries found (install postgresql)' : '';
const suite = skipReason === '' ? describe : describe.skip;

suite(
  `database faults: ${NODES} svc processes under load through a restart, stop and freeze of PostgreSQL and a key rotation${skipReason === '' ? '' : ` (skipped: ${skipReason})`}`,
  () => {
    const dirs: string[] = [];
    const nodes: SvcProcess[] = [];
    /** Made again when the load starts, so that reports count seconds from there. */
    let timeline = new FaultTimeline(GRACE_MS);
    let run: DatabaseFaultRun | undefined;
    let cluster: LaunchedPostgres | undefined;
    let freezer: PostgresFreezer | undefined;
    let sql: pg.Pool | undefined;
    let load: TokenLoad | undefined;
    let databaseUrl = '';
    let failed = false;

    const tempDir = () => {
      const dir = mkdtempSync(join(testTempRoot(), 'svc-faults-'));
      dirs.push(dir);
      return dir;
    };

    beforeAll(async () => {
      try {
        await startAndRun();
      } catch (error) {
        failed = true;
        throw error;
      }
    }, 180_000);

    /** The cluster, the three nodes, the seed, then the load through every fault. */
    async function startAndRun(): Promise<void> {
      assertCliBuilt();
      cluster = await launchPostgres(postgresBin!);
      freezer = new PostgresFreezer(cluster.dataDir);
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      await admin.query('CREATE DATABASE svc_faults');
      await admin.end();
      databaseUrl = cluster.url.replace(/\/postgres$/, '/svc_faults');
      // Bounded like every call of the load: an evidence query must not hang on a frozen database.
      sql = new pg.Pool({
        connectionString: databaseUrl,
        max: 2,
        connectionTimeoutMillis: 2_000,
        query_timeout: 5_000,
      });
      sql.on('error', () => undefined); // the faults end its idle connections too

      const ports = await Promise.all(Array.from({ length: NODES }, () => freePort()));
      const env = (): NodeJS.ProcessEnv => ({
        SVC_DATABASE_URL: databaseUrl,
        SVC_PUBLIC_ORIGIN: `http://127.0.0.1:${ports[0]}`, // one issuer for every node
        SVC_SECRET_KEY: SECRET_KEY,
        SVC_ADMIN_TOKEN: ADMIN_TOKEN,
        SVC_DATA_DIR: tempDir(),
        SVC_LOG_LEVEL: 'warn',
        SVC_DB_CONNECT_TIMEOUT_MS: String(DB_TIMEOUTS.connect),
        SVC_DB_STATEMENT_TIMEOUT_MS: String(DB_TIMEOUTS.statement),
        SVC_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: String(DB_TIMEOUTS.idleInTransaction),
        SVC_SIGNING_KEY_CACHE_MS: '1000', // nodes sign with a rotated key within a second
      });
      // The first node migrates and creates the signing key; the others start once it serves.
      nodes.push(new SvcProcess('node 0', ports[0]!, env()));
      await waitUntilReady(nodes[0]!);
      for (let i = 1; i < NODES; i += 1) nodes.push(new SvcProcess(`node ${i}`, ports[i]!, env()));
      await Promise.all(nodes.slice(1).map((node) => waitUntilReady(node)));

      const clientSecret = await seed(nodes[0]!.address);
      timeline = new FaultTimeline(GRACE_MS);
      const calls = new SessionCalls({ clientId: CLIENT_ID, clientSecret }, REQUEST_TIMEOUT_MS);
      load = new TokenLoad({
        addresses: nodes.map((node) => node.address),
        calls,
        users: CLIENT_USERS,
        timeline,
        explainAlreadyUsed: (token) => ambiguousCommitEvidence(sql!, token),
        thinkMs: THINK_MS,
      });
      run = new DatabaseFaultRun({
        nodes,
        postgres: cluster,
        freezer,
        sql,
        databaseUrl,
        load,
        calls,
        timeline,
        cliEnv: env(),
        idleUsers: IDLE_USERS,
        probeUser: PROBE_USER,
        timing: {
          clients: CLIENTS,
          baselineMs: BASELINE_MS,
          healthyMs: HEALTHY_MS,
          outageMs: OUTAGE_MS,
          afterRotationMs: AFTER_ROTATION_MS,
          recoveryPollLimitMs: RECOVERY_POLL_LIMIT_MS,
          probeMs: PROBE_MS,
        },
      });
      await run.run();
      console.log(
        [
          'answers per phase:',
          ...summarize(load.answers),
          'node recoveries (ms after the database was back):',
          ...run.recoveries.map(
            (r) => `${r.fault} ${nodes[r.node]!.name}: ${r.afterMs?.toFixed(0) ?? `never (${r.last})`}`,
          ),
          ...run.respawns.map((r) => `respawned: ${r}`),
        ].join('\n  '),
      );
    }

    beforeEach(({ onTestFailed }) => {
      onTestFailed(() => {
        failed = true;
      });
    });

    afterAll(async () => {
      await load?.stop();
      freezer?.thaw();
      if (failed) {
        for (const node of nodes) console.log(`--- ${node.name} output (tail) ---\n${node.outputTail(8)}`);
      }
      try {
        await Promise.all(nodes.map((node) => node.stop()));
        await sql?.end();
        await cluster?.stop();
      } finally {
        for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);

    /** The accounts (see CLIENT_USERS) and one confidential first-party client, through the operator API. */
    async function seed(address: string): Promise<string> {
      const operator = async (path: string, body: unknown) => {
        const response = await fetch(`${address}/svc/admin/auth/api${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const answer = (await response.json()) as Record<string, unknown>;
        if (response.status !== 201)
          throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(answer)}`);
        return answer;
      };
      for (const account of [...CLIENT_USERS, ...IDLE_USERS, PROBE_USER]) {
        await operator('/users', { displayName: 'Fault Tester', ...account });
      }
      const client = await operator('/clients', {
        clientId: CLIENT_ID,
        name: 'Fault test app',
        audience: 'https://api.faults.example',
        redirectUris: ['https://app.faults.example/callback'],
        isFirstParty: true, // the direct password login is for first-party apps
        tokenEndpointAuthMethod: 'client_secret_basic',
      });
      return String(client.clientSecret);
    }

    const answers = () => load?.answers ?? [];
    /** What the run recorded; fails the test when the run did not get as far as being made. */
    const found = () => {
      if (run === undefined) throw new Error('the fault run did not start: see the setup error');
      return run;
    };
    const offenders = (list: readonly Answer[]) => listOffenders(list, timeline);

    it('the faults happened as intended (restart, stop, freeze, rotation)', () => {
      expect(found().harness, 'the harness could not produce the faults').toEqual([]);
      expect(timeline.windows.map((w) => w.fault)).toEqual(['restart', 'stop', 'freeze']);
    });

    it('no node process exits during the run', () => {
      const exits = nodes.flatMap((node) =>
        node.exits
          .filter((exit) => !exit.expected)
          .map(
            (exit) =>
              `${node.name} exited at ${timeline.at(exit.at)} (code ${String(exit.code)}, signal ${String(exit.signal)}):\n${exit.lastWords}`,
          ),
      );
      expect(exits, 'node processes that died (each restarted by the test so that the run went on)').toEqual(
        [],
      );
    });

    it('no answer is a 500, a hang or a broken connection', () => {
      const broken = answers().filter(
        (a) => typeof a.status !== 'number' || (a.status >= 500 && a.status !== 503),
      );
      expect(offenders(broken), 'answers that were 5xx other than 503, timeouts or network errors').toEqual(
        [],
      );
    });

    it('during a fault, every refusal is a prompt 503 temporarily_unavailable with Retry-After', () => {
      const refusals = answers().filter(
        (a) => a.status !== 200 && a.ambiguousCommit === undefined && timeline.faultOf(a) !== undefined,
      );
      const bad = refusals.filter(
        (a) =>
          a.status !== 503 ||
          a.body?.error !== 'temporarily_unavailable' ||
          a.retryAfter === null ||
          a.durationMs > MAX_REFUSAL_MS,
      );
      expect(
        offenders(bad),
        `refusals in a fault window that were not a 503 temporarily_unavailable with Retry-After within ${MAX_REFUSAL_MS} ms`,
      ).toEqual([]);
    });

    it('outside the fault windows every answer is 200', () => {
      const bad = answers().filter(
        (a) => a.status !== 200 && a.ambiguousCommit === undefined && timeline.faultOf(a) === undefined,
      );
      expect(
        offenders(bad),
        `non-200 answers in the baseline, the rotation or later than ${GRACE_MS} ms after the database was back`,
      ).toEqual([]);
    });

    it("every node serves again within 2 s of the database's return, without a restart", () => {
      const { recoveries, respawns } = found();
      const slow = recoveries
        .filter((r) => r.afterMs === undefined || r.afterMs > GRACE_MS)
        .map(
          (r) =>
            `${r.fault}: ${nodes[r.node]!.name} ${r.afterMs === undefined ? `never answered 200 (last: ${r.last})` : `took ${r.afterMs.toFixed(0)} ms`}`,
        );
      expect(recoveries).toHaveLength(NODES * 3);
      expect(slow, 'nodes that did not answer JWKS and userinfo with 200 in time').toEqual([]);
      expect(respawns, 'nodes the test had to start again').toEqual([]);
    });

    it('sessions signed in before a fault and left idle still refresh afterwards', () => {
      const { idleRefreshes } = found();
      expect(idleRefreshes).toHaveLength(IDLE_SESSIONS * 4);
      expect(
        offenders(idleRefreshes.filter((a) => a.status !== 200)),
        'idle sessions whose refresh failed',
      ).toEqual([]);
    });

    it("the key rotation refuses no token, and every node validates the new key's tokens", () => {
      const refused = answers().filter((a) => a.status === 401);
      // Soft: the second finding below is worth seeing even when this one fails.
      expect.soft(offenders(refused), 'refused validations (401) in the whole run').toEqual([]);
      const { newKid } = found();
      expect(newKid).toBeDefined();
      const afterRotation = answers().filter((a) => a.kind === 'userinfo' && a.phase === 'rotation');
      const validatedBy = (node: number) =>
        afterRotation.filter((a) => a.node === node && a.kid === newKid && a.status === 200).length;
      const kids = new Map<string, number>();
      for (const a of afterRotation) {
        const key = `${a.kid === newKid ? 'new' : 'old'} key ${String(a.status)}`;
        kids.set(key, (kids.get(key) ?? 0) + 1);
      }
      expect(
        nodes.map((node, i) => `${node.name}: ${validatedBy(i)}`),
        `userinfo answers 200 to tokens of the new key within ${AFTER_ROTATION_MS} ms of the rotation, by node ` +
          `(all userinfo answers then: ${[...kids].map(([k, n]) => `${k} ×${n}`).join(', ')})`,
      ).not.toContainEqual(expect.stringMatching(/: 0$/));
    });

    it('ambiguous commits are few, and the database confirms each one', () => {
      const ambiguous = answers().filter((a) => a.ambiguousCommit !== undefined);
      const unconfirmed = ambiguous
        .filter((a) => a.ambiguousCommit?.confirmed !== true)
        .map((a) => `${describeAnswer(a, timeline)} — ${a.ambiguousCommit?.evidence ?? ''}`);
      expect(unconfirmed, 'retries answered "already used" that the database does not explain').toEqual([]);
      for (const window of timeline.windows) {
        const inWindow = ambiguous.filter((a) => timeline.faultOf(a) === window);
        expect(inWindow.length, `ambiguous commits in the ${window.fault}`).toBeLessThanOrEqual(CLIENTS);
      }
    });

    it('no session ends up with two live refresh tokens', async () => {
      expect(await familiesWithTwoLiveTokens(sql!), 'refresh-token families with two live tokens').toEqual(
        [],
      );
    });
  },
);
