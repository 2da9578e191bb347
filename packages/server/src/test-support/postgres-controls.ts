import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/** The postmaster's pid: the first line of `<data>/postmaster.pid` while the server runs. */
export function postmasterPid(dataDir: string): number {
  const first = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0] ?? '';
  const pid = Number(first.trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no postmaster pid in ${dataDir}/postmaster.pid`);
  return pid;
}

/** The pids whose parent is `parent`, from /proc/<pid>/stat (its 4th field, after the parenthesized name). */
export function childPids(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // the process ended while we listed
    }
    // The name may hold spaces and parentheses: the fields that follow start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) === parent) children.push(Number(entry));
  }
  return children;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    // A backend that ended in the meantime has nothing left to stop or continue.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * A database that hangs rather than refuses: SIGSTOP to the postmaster and every process it started
 * (backends, checkpointer, WAL writer…), SIGCONT to the same processes on thaw. The kernel still
 * accepts TCP connections on the stopped postmaster's socket, so clients connect and then wait, as they
 * do when a database host stalls. Root may signal the `postgres` user's processes.
 */
export class PostgresFreezer {
  readonly #dataDir: string;
  #frozen: number[] = [];

  constructor(dataDir: string) {
    this.#dataDir = dataDir;
  }

  get frozen(): boolean {
    return this.#frozen.length > 0;
  }

  freeze(): void {
    if (this.frozen) return;
    const postmaster = postmasterPid(this.#dataDir);
    // The postmaster first: once stopped it forks no new backend, so the list of children is complete.
    signal(postmaster, 'SIGSTOP');
    this.#frozen = [postmaster];
    for (const child of childPids(postmaster)) {
      signal(child, 'SIGSTOP');
      this.#frozen.push(child);
    }
  }

  thaw(): void {
    // The children first, so that the postmaster finds its backends running when it resumes.
    for (const pid of [...this.#frozen].reverse()) signal(pid, 'SIGCONT');
    this.#frozen = [];
  }
}

/** How a database answered a probe: `ok`, `refused` (nothing listens), `hang` (no answer in time) or an error. */
export type ProbeResult = 'ok' | 'refused' | 'hang' | `error: ${string}`;

/**
 * Connects to `url` and runs `SELECT 1`, giving up after `timeoutMs`: tells a stopped database
 * (refused) from a frozen one (hang) from a working one.
 */
export async function probePostgres(url: string, timeoutMs: number): Promise<ProbeResult> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  client.on('error', () => undefined); // a late socket error after we gave up
  try {
    await client.connect();
    await client.query('SELECT 1');
    return 'ok';
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    if (err.code === 'ECONNREFUSED') return 'refused';
    if (/timeout/i.test(err.message)) return 'hang';
    return `error: ${err.code ?? err.message}`;
  } finally {
    // Ending politely would wait for an answer a frozen server never sends: drop the socket.
    client.connection.stream.destroy();
  }
}

/**
 * `SELECT 1` on a connection opened before a fault, giving up after `timeoutMs`: a frozen server leaves
 * the query unanswered (`hang`), a stopped or restarted one has closed the connection (an error). After
 * a hang the query stays pending until the caller destroys the connection.
 */
export async function probeConnection(client: pg.Client, timeoutMs: number): Promise<ProbeResult> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<ProbeResult>((resolve) => {
    timer = setTimeout(() => resolve('hang'), timeoutMs);
  });
  const query = client.query('SELECT 1').then(
    (): ProbeResult => 'ok',
    (error: NodeJS.ErrnoException): ProbeResult => `error: ${error.code ?? error.message}`,
  );
  try {
    return await Promise.race([query, hang]);
  } finally {
    clearTimeout(timer);
  }
}
