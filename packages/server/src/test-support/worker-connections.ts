import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Agent, request } from 'node:http';

/**
 * Which process of a `svc serve --workers N` serves what, read from Linux's /proc: the primary's
 * children, and the process that holds the server end of a TCP connection. Nothing in Svc says which
 * worker answered, and nothing should; the kernel knows.
 */

/** The ids of the live processes whose parent is `pid`. */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name, which may hold spaces and parentheses: state, then the parent id.
      const parent = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
      if (parent === String(pid)) children.push(Number(entry));
    } catch {
      // the process ended while the list was read
    }
  }
  return children.sort((a, b) => a - b);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The process among `pids` holding the server end of the loopback connection `clientPort` → `serverPort`. */
export function connectionOwner(
  serverPort: number,
  clientPort: number,
  pids: readonly number[],
): number | undefined {
  const inode = serverSocketInode(serverPort, clientPort);
  if (inode === undefined) return undefined;
  const link = `socket:[${inode}]`;
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === link) return pid;
      }
    } catch {
      // the process ended, or a descriptor closed while the list was read
    }
  }
  return undefined;
}

/** /proc/net/tcp rows: "sl local rem st … inode", addresses as hex "0100007F:1F90". */
function serverSocketInode(serverPort: number, clientPort: number): string | undefined {
  for (const row of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = row.trim().split(/\s+/);
    const local = Number.parseInt(fields[1]?.split(':')[1] ?? '', 16);
    const remote = Number.parseInt(fields[2]?.split(':')[1] ?? '', 16);
    if (local === serverPort && remote === clientPort) return fields[9];
  }
  return undefined;
}

export interface PinnedReply {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/**
 * One keep-alive HTTP connection to `address`, and the worker at its other end: every request goes over
 * this one connection, so `pid` answered it (a request that would need another connection throws).
 */
export class PinnedConnection {
  readonly pid: number;
  readonly #address: string;
  readonly #agent: Agent;
  readonly #clientPort: number;

  private constructor(address: string, agent: Agent, clientPort: number, pid: number) {
    this.#address = address;
    this.#agent = agent;
    this.#clientPort = clientPort;
    this.pid = pid;
  }

  /** Opens a connection (with a GET of `path`) and finds which of `pids` serves it. */
  static async open(address: string, path: string, pids: readonly number[]): Promise<PinnedConnection> {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const { clientPort } = await send(agent, address, 'GET', path);
    const pid = connectionOwner(Number(new URL(address).port), clientPort, pids);
    if (pid === undefined) {
      agent.destroy();
      throw new Error(`No process of ${pids.join(', ')} holds the connection from port ${clientPort}.`);
    }
    return new PinnedConnection(address, agent, clientPort, pid);
  }

  async request(
    method: 'GET' | 'POST',
    path: string,
    options: { headers?: Record<string, string>; form?: Record<string, string>; json?: unknown } = {},
  ): Promise<PinnedReply> {
    const reply = await send(this.#agent, this.#address, method, path, options);
    if (reply.clientPort !== this.#clientPort) {
      throw new Error(`The connection to worker ${this.pid} closed; the request went over another one.`);
    }
    return { status: reply.status, body: reply.body };
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** One connection to each of `pids`, opened until every worker has one (round robin spreads them). */
export async function connectionToEach(
  address: string,
  path: string,
  pids: readonly number[],
): Promise<PinnedConnection[]> {
  const byPid = new Map<number, PinnedConnection>();
  for (let attempt = 0; attempt < 10 * pids.length && byPid.size < pids.length; attempt += 1) {
    const connection = await PinnedConnection.open(address, path, pids);
    if (byPid.has(connection.pid)) connection.close();
    else byPid.set(connection.pid, connection);
  }
  if (byPid.size < pids.length) {
    for (const connection of byPid.values()) connection.close();
    throw new Error(
      `Connections reached only workers ${[...byPid.keys()].join(', ')} of ${pids.join(', ')}.`,
    );
  }
  return pids.map((pid) => byPid.get(pid) as PinnedConnection);
}

/** A GET on a connection of its own, as a client arriving now sends it: the status or why none came. */
export async function getOnNewConnection(address: string, path: string): Promise<number | string> {
  const agent = new Agent({ keepAlive: false });
  try {
    return (await send(agent, address, 'GET', path)).status;
  } catch (error) {
    return (error as Error).message;
  } finally {
    agent.destroy();
  }
}

function send(
  agent: Agent,
  address: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; form?: Record<string, string>; json?: unknown } = {},
): Promise<PinnedReply & { clientPort: number }> {
  const body =
    options.form !== undefined
      ? new URLSearchParams(options.form).toString()
      : options.json !== undefined
        ? JSON.stringify(options.json)
        : undefined;
  const headers: Record<string, string> = { ...options.headers };
  if (options.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const outgoing = request(new URL(path, address), { method, agent, headers }, (response) => {
      const clientPort = response.socket.localPort ?? 0;
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        resolve({
          status: response.statusCode ?? 0,
          body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
          clientPort,
        });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
