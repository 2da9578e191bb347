// The machine's unit costs, measured in the same run as the HTTP scenarios: an RS256 sign and verify
// (jose, one core), an argon2id verify with Svc's parameters, and one refresh-rotation transaction.
// Every figure is CPU µs per operation (process.cpuUsage around a loop) plus the wall-clock rate. The
// run measures them at its start and again at its end and keeps the cheaper of each (cheaperUnits).
import { generateKeyPairSync, randomBytes, sign as opensslSign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash, verify } from '@node-rs/argon2';
import Database from 'better-sqlite3';
import { jwtVerify, SignJWT } from 'jose';
import pg from 'pg';

/**
 * Calls `operation` for `durationMs` with `concurrency` calls in flight; resolves to
 * `{ ops, opsPerSecond, cpuMicrosPerOp }` (the CPU of this whole process, all threads), and with
 * `latencies` also the median and 99th percentile of the calls' durations (`p50Ms`, `p99Ms`).
 */
export async function runConcurrently(operation, { durationMs, concurrency = 1, latencies = false }) {
  // Preallocated, so that recording adds no garbage (and no collector pauses) to what is measured.
  const durations = latencies ? new Float64Array(1 << 23) : undefined;
  let recorded = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + durationMs;
  let ops = 0;
  const lane = async () => {
    while (performance.now() < deadline) {
      const begun = durations === undefined ? 0 : performance.now();
      await operation(ops);
      if (durations !== undefined && recorded < durations.length) {
        durations[recorded] = performance.now() - begun;
        recorded += 1;
      }
      ops += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const elapsedMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const result = {
    ops,
    opsPerSecond: (ops * 1000) / elapsedMs,
    cpuMicrosPerOp: (used.user + used.system) / ops,
  };
  if (durations === undefined) return result;
  const sorted = durations.subarray(0, recorded).sort();
  const at = (q) => sorted[Math.min(recorded - 1, Math.floor(q * recorded))];
  return { ...result, p50Ms: at(0.5), p99Ms: at(0.99) };
}

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const claims = () => ({
  sub: 'usr_0123456789abcdef',
  client_id: 'web',
  scope: 'openid profile email offline_access read',
  sid: 'ses_0123456789abcdef',
  jti: randomBytes(16).toString('base64url'),
});
const sign = () =>
  new SignJWT(claims())
    .setProtectedHeader({ alg: 'RS256', kid: 'bench', typ: 'at+jwt' })
    .setIssuer('http://127.0.0.1/svc/auth')
    .setAudience('https://api.example.com')
    .setIssuedAt()
    .setExpirationTime('15m')
    .sign(privateKey);

/** jose SignJWT with a parsed RSA-2048 KeyObject, one at a time (one core). */
export const measureSign = (durationMs) => runConcurrently(sign, { durationMs });

/**
 * The same RSA-2048 PKCS#1 v1.5 SHA-256 signature by node:crypto on the calling thread: what OpenSSL
 * itself costs, without the thread-pool round trip of WebCrypto (through which jose signs). Shown beside
 * the jose figure; the ceilings use jose's, which any jose-based server pays.
 */
export async function measureInThreadSign(durationMs) {
  const input = Buffer.from((await sign()).split('.').slice(0, 2).join('.'), 'ascii');
  return runConcurrently(async () => opensslSign('sha256', input, privateKey), { durationMs });
}

/** jose jwtVerify of one RS256 token, one at a time. */
export async function measureVerify(durationMs) {
  const token = await sign();
  return runConcurrently(() => jwtVerify(token, publicKey, { algorithms: ['RS256'] }), { durationMs });
}

/** Svc's argon2id parameters (packages/server/src/directory/password-hasher.ts: OWASP m=19 MiB, t=2, p=1). */
const ARGON2ID = Object.freeze({ algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });

/** argon2id verify with many calls in flight: the throughput bound of password sign-in on this machine. */
export async function measureArgon2(durationMs, concurrency) {
  const stored = await hash('correct horse battery staple', ARGON2ID);
  return runConcurrently(
    async () => {
      if (!(await verify(stored, 'correct horse battery staple'))) throw new Error('argon2 mismatch');
    },
    { durationMs, concurrency },
  );
}

/** measureArgon2 as a unit cost, which names its number of calls in flight. */
export const measureArgon2Unit = async (durationMs, concurrency) => ({
  ...(await measureArgon2(durationMs, concurrency)),
  concurrency,
});

/**
 * Every unit cost measured in this process (each for `durationMs`; argon2id twice as long, with
 * `argon2Concurrency` in flight; the rotation on SQLite or on `postgresUrl`).
 */
export async function measureUnits({ durationMs, argon2Concurrency, db, postgresUrl }) {
  return {
    sign: await measureSign(durationMs),
    inThreadSign: await measureInThreadSign(durationMs),
    verify: await measureVerify(durationMs),
    argon2: await measureArgon2Unit(durationMs * 2, argon2Concurrency),
    rotation: { ...(await measureRotation(durationMs, postgresUrl)), db },
  };
}

/**
 * Per unit, the cheaper of the measurements at the start and at the end of the run, with both kept as
 * `measured: { start, end }` (CPU µs per operation). Whatever else the machine does can only add CPU
 * to an operation (a busy neighbour, frequency scaling, caches taken by another process), never take
 * it away, so the lower figure is the closer one to what the operation itself costs.
 */
export function cheaperUnits(start, end) {
  return Object.fromEntries(
    Object.keys(start).map((name) => {
      const [first, last] = [start[name], end[name]];
      const kept = last.cpuMicrosPerOp < first.cpuMicrosPerOp ? last : first;
      return [name, { ...kept, measured: { start: first.cpuMicrosPerOp, end: last.cpuMicrosPerOp } }];
    }),
  );
}

const ROTATION_TABLE = `CREATE TABLE bench_rotation (id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE,
  family_id TEXT NOT NULL, consumed_at BIGINT, expires_at BIGINT NOT NULL, payload TEXT NOT NULL)`;

/**
 * One refresh rotation as a store does it: in one transaction, consume the presented token with a
 * conditional UPDATE and insert its successor. SQLite (WAL, synchronous NORMAL like Svc) or PostgreSQL
 * (`postgresUrl`; only this process's CPU counts, the server's is not seen).
 */
export async function measureRotation(durationMs, postgresUrl) {
  let n = 0;
  const row = () => {
    n += 1;
    return [
      `rt_${n}`,
      randomBytes(32).toString('hex'),
      'fam_1',
      Date.now() + 3_600_000,
      '{"scope":"openid"}',
    ];
  };
  if (postgresUrl === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-tx-'));
    const db = new Database(join(dir, 'tx.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(ROTATION_TABLE);
    const insert = db.prepare(
      'INSERT INTO bench_rotation (id, hash, family_id, expires_at, payload) VALUES (?, ?, ?, ?, ?)',
    );
    const consume = db.prepare(
      'UPDATE bench_rotation SET consumed_at = ? WHERE hash = ? AND consumed_at IS NULL',
    );
    let current = row();
    insert.run(...current);
    const rotate = db.transaction(() => {
      if (consume.run(Date.now(), current[1]).changes !== 1) throw new Error('not rotated');
      current = row();
      insert.run(...current);
    });
    try {
      return await runConcurrently(async () => rotate(), { durationMs });
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query('DROP TABLE IF EXISTS bench_rotation');
    await client.query(ROTATION_TABLE);
    const insertSql =
      'INSERT INTO bench_rotation (id, hash, family_id, expires_at, payload) VALUES ($1, $2, $3, $4, $5)';
    let current = row();
    await client.query(insertSql, current);
    return await runConcurrently(
      async () => {
        await client.query('BEGIN');
        const consumed = await client.query({
          name: 'consume',
          text: 'UPDATE bench_rotation SET consumed_at = $1 WHERE hash = $2 AND consumed_at IS NULL',
          values: [Date.now(), current[1]],
        });
        if (consumed.rowCount !== 1) throw new Error('not rotated');
        current = row();
        await client.query({ name: 'insert', text: insertSql, values: current });
        await client.query('COMMIT');
      },
      { durationMs },
    );
  } finally {
    await client.query('DROP TABLE IF EXISTS bench_rotation');
    await client.end();
  }
}
