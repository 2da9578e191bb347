import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of a database, which a test turns into the database's bad days without
 * touching the shared server: `freeze()` holds the bytes either way (a stopped server: connections
 * open, nothing answers, and what was sent is read when it resumes), `drop()` resets every connection
 * and every new one (a server that went away), `heal()` passes bytes again, the held ones first.
 */
export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  freeze(): void;
  drop(): void;
  heal(): void;
  close(): Promise<void>;
}

type Mode = 'pass' | 'frozen' | 'dropped';

interface Pair {
  readonly client: Socket;
  readonly server: Socket;
  /** Bytes held while frozen, per direction, in order. */
  readonly held: { readonly toServer: Buffer[]; readonly toClient: Buffer[] };
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let mode: Mode = 'pass';
  const pairs = new Set<Pair>();
  const server: Server = createServer((client) => {
    if (mode === 'dropped') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(targetPort, targetHost);
    const pair: Pair = { client, server: upstream, held: { toServer: [], toClient: [] } };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      if (mode === 'pass') upstream.write(chunk);
      else pair.held.toServer.push(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (mode === 'pass') client.write(chunk);
      else pair.held.toClient.push(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the proxy has no port');
  const port = address.port;
  return {
    port,
    via(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    freeze() {
      mode = 'frozen';
    },
    drop() {
      mode = 'dropped';
      for (const pair of pairs) pair.client.resetAndDestroy();
    },
    heal() {
      mode = 'pass';
      for (const pair of pairs) {
        for (const chunk of pair.held.toServer.splice(0)) pair.server.write(chunk);
        for (const chunk of pair.held.toClient.splice(0)) pair.client.write(chunk);
      }
    },
    async close() {
      for (const pair of pairs) pair.client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
