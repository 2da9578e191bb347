import pg from 'pg';
import { activeSigningKid } from './database-evidence.js';
import type { Answer, FaultTimeline, Phase } from './fault-timeline.js';
import {
  postmasterPid,
  probeConnection,
  probePostgres,
  type PostgresFreezer,
  type ProbeResult,
} from './postgres-controls.js';
import type { LaunchedPostgres } from './postgres-launcher.js';
import { runSvcCli, waitUntilReady, type SvcProcess } from './svc-processes.js';
import type { SessionCalls } from './timed-calls.js';
import type { Credentials, Session, TokenLoad } from './token-load.js';

/** How long each stretch of a fault run lasts; the test sets the values and says why. */
export interface FaultRunTiming {
  readonly clients: number;
  readonly baselineMs: number;
  /** Healthy load after each fault, before the next. */
  readonly healthyMs: number;
  /** How long the database stays stopped, and frozen. */
  readonly outageMs: number;
  readonly afterRotationMs: number;
  /** How long a node is polled after the database's return before it counts as not serving. */
  readonly recoveryPollLimitMs: number;
  /** How long a database probe waits before it calls the database hung. */
  readonly probeMs: number;
}

export interface FaultRunSetup {
  readonly nodes: readonly SvcProcess[];
  readonly postgres: LaunchedPostgres;
  readonly freezer: PostgresFreezer;
  /** The test's own pool on the nodes' database. */
  readonly sql: pg.Pool;
  readonly databaseUrl: string;
  readonly load: TokenLoad;
  readonly calls: SessionCalls;
  readonly timeline: FaultTimeline;
  /** The environment `svc keys rotate` runs with: the nodes'. */
  readonly cliEnv: NodeJS.ProcessEnv;
  /** The accounts of the idle sessions signed in before each fault, and of the node probe. */
  readonly idleUsers: readonly Credentials[];
  readonly probeUser: Credentials;
  readonly timing: FaultRunTiming;
}

export interface NodeRecovery {
  readonly fault: Phase;
  readonly node: number;
  /** From the database's return to the node's first 200 to both JWKS and userinfo; undefined: never. */
  readonly afterMs: number | undefined;
  /** The last failed poll, or why polling stopped. */
  readonly last: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * The fault sequence under load: baseline; PostgreSQL restarted; stopped for `outageMs`; frozen for
 * `outageMs`; the signing key rotated from the CLI. Around each database fault: idle sessions signed in
 * before it, every node polled from the moment the database is back, dead nodes started again (and
 * recorded) so that the next fault still meets every node, the idle sessions refreshed once the grace
 * period is over, then healthy load. What it finds is recorded here, as the run goes, so that a run that
 * failed half-way still shows what it saw.
 */
export class DatabaseFaultRun {
  readonly recoveries: NodeRecovery[] = [];
  readonly idleRefreshes: Answer[] = [];
  /** Faults that did not happen as intended: the harness's own failures. */
  readonly harness: string[] = [];
  readonly respawns: string[] = [];
  newKid: string | undefined;
  readonly #setup: FaultRunSetup;

  constructor(setup: FaultRunSetup) {
    this.#setup = setup;
  }

  async run(): Promise<void> {
    const { load, postgres, freezer, databaseUrl, timing } = this.#setup;
    const probe = await load.signIn('probe', this.#setup.probeUser, 0);
    if (probe === undefined) throw new Error('the probe session could not sign in');

    load.start(timing.clients);
    await sleep(timing.baselineMs);

    await this.#databaseFault('restart', probe, async () => {
      const before = postmasterPid(postgres.dataDir);
      await postgres.restart();
      if (postmasterPid(postgres.dataDir) === before) {
        this.harness.push('restart: the postmaster pid did not change');
      }
    });

    await this.#databaseFault('stop', probe, async () => {
      const until = performance.now() + timing.outageMs;
      await postgres.stopServer();
      await this.#expectProbe('stop', probePostgres(databaseUrl, timing.probeMs), 'refused');
      await sleep(until - performance.now());
      await postgres.startServer();
    });

    await this.#databaseFault('freeze', probe, async () => {
      const until = performance.now() + timing.outageMs;
      const connected = new pg.Client({ connectionString: databaseUrl });
      connected.on('error', () => undefined);
      await connected.connect();
      freezer.freeze();
      // A query on an open connection and a new connection alike must hang, not fail.
      await Promise.all([
        this.#expectProbe('freeze', probeConnection(connected, timing.probeMs), 'hang'),
        this.#expectProbe('freeze', probePostgres(databaseUrl, timing.probeMs), 'hang'),
      ]);
      connected.connection.stream.destroy();
      await sleep(until - performance.now());
      freezer.thaw();
    });

    await this.#rotation();
    await load.stop();
  }

  /** Idle sessions, the fault, the node polls, the grace period, the idle refreshes, healthy load. */
  async #databaseFault(fault: Phase, probe: Session, act: () => Promise<void>): Promise<void> {
    const { nodes, timeline, databaseUrl, timing } = this.#setup;
    const idle = await this.#signInIdle(fault);
    const window = timeline.begin(fault);
    await act();
    timeline.databaseBack(window);
    const back = window.back ?? performance.now();
    await Promise.all([
      ...nodes.map((_, i) => this.#timeToServe(fault, i, probe, back)),
      this.#expectProbe(fault, probePostgres(databaseUrl, timing.probeMs), 'ok'),
    ]);
    await this.#respawnExited(fault);
    await sleep((window.end ?? 0) - performance.now());
    timeline.phase = 'recovery';
    await this.#refreshIdle(fault, idle);
    await sleep(timing.healthyMs);
  }

  /** `svc keys rotate` in its own process, then load long enough for every node to sign with the new key. */
  async #rotation(): Promise<void> {
    const { sql, timeline, cliEnv, timing } = this.#setup;
    const idle = await this.#signInIdle('rotation');
    timeline.phase = 'rotation';
    const oldKid = await activeSigningKid(sql);
    const rotated = await runSvcCli(['keys', 'rotate'], cliEnv);
    if (rotated.code !== 0) {
      this.harness.push(`keys rotate exited with ${String(rotated.code)}: ${rotated.stderr}`);
    }
    this.newKid = await activeSigningKid(sql);
    if (this.newKid === oldKid) this.harness.push(`rotation: the active kid is still ${String(oldKid)}`);
    await sleep(timing.afterRotationMs);
    await this.#refreshIdle('rotation', idle);
  }

  async #expectProbe(fault: Phase, result: Promise<ProbeResult>, expected: ProbeResult): Promise<void> {
    const got = await result;
    if (got !== expected)
      this.harness.push(`${fault}: a database probe answered ${got}, expected ${expected}`);
  }

  async #signInIdle(fault: Phase): Promise<Session[]> {
    const sessions = await Promise.all(
      this.#setup.idleUsers.map((account, i) => this.#setup.load.signIn(`idle ${fault} ${i}`, account, i)),
    );
    return sessions.filter((s): s is Session => s !== undefined);
  }

  async #refreshIdle(fault: Phase, sessions: readonly Session[]): Promise<void> {
    const { load, nodes } = this.#setup;
    for (const [i, session] of sessions.entries()) {
      this.idleRefreshes.push(await load.refreshIdle(`idle ${fault} ${i}`, i % nodes.length, session));
    }
  }

  /** Polls one node (JWKS, and userinfo, which reads the session) until both answer 200, or it dies. */
  async #timeToServe(fault: Phase, node: number, probe: Session, since: number): Promise<void> {
    const { nodes, calls, timing } = this.#setup;
    const target = nodes[node]!;
    let last = 'no answer';
    while (performance.now() - since < timing.recoveryPollLimitMs) {
      if (!target.running) {
        this.recoveries.push({ fault, node, afterMs: undefined, last: 'the process exited' });
        return;
      }
      const [keys, info] = await Promise.all([
        calls.jwks(target.address),
        calls.userinfo(target.address, probe.accessToken),
      ]);
      if (keys.status === 200 && info.status === 200) {
        this.recoveries.push({ fault, node, afterMs: performance.now() - since, last: '200' });
        return;
      }
      last = `jwks ${keys.status}, userinfo ${info.status} ${JSON.stringify(info.body)}`;
      await sleep(100);
    }
    this.recoveries.push({ fault, node, afterMs: undefined, last });
  }

  /** A node that died is started again, so that the later faults still meet every node (and say so). */
  async #respawnExited(fault: Phase): Promise<void> {
    for (const node of this.#setup.nodes.filter((n) => !n.running)) {
      this.respawns.push(`${node.name} after the ${fault}`);
      node.respawn();
      await waitUntilReady(node).catch((error: unknown) => this.harness.push(`respawn: ${String(error)}`));
    }
  }
}
