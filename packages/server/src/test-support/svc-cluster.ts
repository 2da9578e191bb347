import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { createSvc, type Svc } from '../app/create-svc.js';
import type { SvcOptions } from '../config/options.js';
import { createTestDatabase } from './databases.js';
import { FakeClock } from './fake-clock.js';
import { TEST_PASSWORD_HASHING } from './test-password-hashing.js';
import { TEST_ADMIN_TOKEN, TEST_ORIGIN } from './test-svc.js';
import { testTempRoot } from './test-temp.js';

/** One node of a cluster: its own Svc (own pool, own caches) listening on its own loopback port. */
export interface ClusterNode {
  readonly svc: Svc;
  /** `http://127.0.0.1:<port>`: where this node listens. */
  readonly address: string;
  /** Absolute URL of a path under this node's auth base, e.g. `url('/token')`. */
  url(path: string): string;
}

export interface SvcCluster {
  readonly nodes: readonly ClusterNode[];
  /** The one clock of every node (nodes of a real deployment agree on time through NTP). */
  readonly clock: FakeClock;
  close(): Promise<void>;
}

/**
 * `size` Svc nodes on one fresh PostgreSQL database, as a deployment behind a load balancer runs them:
 * each built by the real app factory with its own connection pool and in-memory caches, all sharing the
 * database, the master key and the public origin (so one issuer), each listening on a free loopback port.
 * The first node migrates and creates the first signing key; the others start at once, concurrently.
 */
export async function startSvcCluster(size: number, options: SvcOptions = {}): Promise<SvcCluster> {
  const database = await createTestDatabase('postgres');
  const clock = new FakeClock();
  const secretKey = randomBytes(32).toString('hex');
  const dataDirs: string[] = [];
  const nodes: ClusterNode[] = [];
  const startNode = async (): Promise<ClusterNode> => {
    const dataDir = mkdtempSync(join(testTempRoot(), 'svc-node-'));
    dataDirs.push(dataDir);
    const svc = await createSvc(
      {
        databaseUrl: database.url,
        dataDir,
        publicOrigin: TEST_ORIGIN,
        host: '127.0.0.1',
        port: 0,
        adminToken: TEST_ADMIN_TOKEN,
        secretKey,
        logLevel: false,
        keyRotationSchedule: false,
        passwordHashing: TEST_PASSWORD_HASHING,
        clock,
        ...options,
      },
      { env: {} },
    );
    const node: ClusterNode = {
      svc,
      address: await svc.listen().catch(async (error: unknown) => {
        await svc.close();
        throw error;
      }),
      url: (path) => `${node.address}${svc.config.authBase}${path}`,
    };
    nodes.push(node);
    return node;
  };
  const close = async () => {
    await Promise.all(nodes.map((n) => n.svc.close()));
    await database.drop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await startNode();
    const others = await Promise.allSettled(Array.from({ length: size - 1 }, () => startNode()));
    const failed = others.find((o) => o.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return { nodes: [...nodes], clock, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The two nodes of {@link describeOnTwoNodes}, there once its beforeAll has run. */
export interface TwoNodes {
  /** The node the operator writes through. */
  readonly operatorNode: ClusterNode;
  /** The node that has just served from its caches, and must see the write at once. */
  readonly servingNode: ClusterNode;
}

/**
 * A suite on a cluster of two nodes on one PostgreSQL, for what one node writes and the other must
 * see at once; skipped, saying why, where no PostgreSQL is available.
 */
export function describeOnTwoNodes(title: string, body: (nodes: TwoNodes) => void): void {
  const skipReason = inject('postgresSkipReason');
  const suite = skipReason === '' ? describe : describe.skip;
  suite(`${title}${skipReason === '' ? '' : ` (skipped: ${skipReason})`}`, () => {
    let cluster: SvcCluster | undefined;
    const nodes = {} as { operatorNode: ClusterNode; servingNode: ClusterNode };
    beforeAll(async () => {
      cluster = await startSvcCluster(2);
      [nodes.operatorNode, nodes.servingNode] = cluster.nodes as [ClusterNode, ClusterNode];
    });
    afterAll(async () => {
      await cluster?.close();
    });
    body(nodes);
  });
}
