import { BlockList } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readBody,
  startLoopbackServer,
  type LoopbackServer,
} from '../test-support/federation/loopback-server.js';
import { providerFetch, type ProviderFetchOptions } from './provider-fetch.js';
import { allowedNetworks, hostLookup, type HostLookup, type ResolvedAddress } from './public-fetch.js';

/** Names only this test knows, answered without DNS; every other name goes to the system's look-up. */
const NAMES: Readonly<Record<string, readonly ResolvedAddress[]>> = {
  'loopback.example': [{ address: '127.0.0.1', family: 4 }],
  'ten.example': [{ address: '10.1.2.3', family: 4 }],
  'metadata.example': [{ address: '169.254.169.254', family: 4 }],
  'mixed.example': [
    { address: '8.8.8.8', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'mapped.example': [{ address: '::ffff:127.0.0.1', family: 6 }],
};
const system = hostLookup({ servers: null, timeoutMs: 1_000 });
let lookups: string[] = [];
const lookup: HostLookup = (hostname) => {
  lookups.push(hostname);
  const known = NAMES[hostname];
  return known === undefined ? system(hostname) : Promise.resolve(known);
};

function networks(entries: readonly string[]): BlockList {
  const list = allowedNetworks(entries);
  if ('invalid' in list) throw new Error(`refused ${list.invalid}`);
  return list;
}

function transport(options: Partial<ProviderFetchOptions> = {}) {
  return providerFetch({
    lookup,
    allowedNetworks: new BlockList(),
    loopback: false,
    caCertificates: [],
    ...options,
  });
}

const get = (): RequestInit => ({ method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(2_000) });

/**
 * The transport of requests to providers (docs/decisions/federation-provider-destinations.md): what it
 * refuses before sending anything, and that what it sends behaves as fetch, to the vetted address.
 */
describe('providerFetch', () => {
  let server: LoopbackServer;
  let port: string;

  beforeAll(async () => {
    server = await startLoopbackServer();
    port = new URL(server.origin).port;
    server.serve(async (request, response) => {
      if (request.url === '/echo') {
        const body = await readBody(request);
        response.setHeader('content-type', 'application/json');
        response.setHeader('set-cookie', ['a=1', 'b=2']);
        response.statusCode = 201;
        response.end(
          JSON.stringify({
            method: request.method,
            host: request.headers.host,
            type: request.headers['content-type'],
            agent: request.headers['user-agent'],
            body,
          }),
        );
      } else if (request.url === '/moved') {
        response.writeHead(302, { location: '/echo' }).end();
      } else if (request.url === '/empty') {
        response.writeHead(204).end();
      } else if (request.url !== '/silent') {
        response.writeHead(404).end();
      }
    });
  });
  afterAll(() => server.close());

  it('refuses this machine without the setting, by address or by name, and sends nothing', async () => {
    const send = transport();
    for (const host of ['127.0.0.1', 'localhost', '[::1]', 'loopback.example', 'mapped.example']) {
      expect(await send(`http://${host}:${port}/echo`, get()), host).toEqual({ refused: 'loopback' });
      expect(await send(`https://${host}:${port}/echo`, get()), host).toEqual({ refused: 'loopback' });
    }
    expect(server.requests).toEqual([]);
  });

  it('with the setting reaches a loopback host name, never another name that resolves to loopback', async () => {
    const send = transport({ loopback: true });
    for (const host of ['loopback.example', 'mapped.example', 'mixed.example']) {
      expect(await send(`http://${host}:${port}/echo`, get()), host).toEqual({ refused: 'loopback' });
    }
    expect(server.requests).toEqual([]);
    const answer = await send(`http://127.0.0.1:${port}/echo`, get());
    if ('refused' in answer) throw new Error(answer.refused);
    expect(answer.status).toBe(201);
    expect(server.requests).toEqual(['GET /echo']);
  });

  it('refuses private, link-local and other non-public addresses unless their network is listed', async () => {
    const send = transport();
    for (const host of ['ten.example', 'metadata.example', '10.0.0.1', '[fd00::1]', '[::ffff:10.0.0.1]']) {
      expect(await send(`https://${host}/token`, get()), host).toEqual({ refused: 'not_public' });
    }
    const listed = transport({ allowedNetworks: networks(['10.0.0.0/8']) });
    const refusedElsewhere = await listed(`https://metadata.example/token`, get());
    expect(refusedElsewhere).toEqual({ refused: 'not_public' });
  });

  it('connects to the address it vetted: a name only its look-up knows, listed as an allowed network', async () => {
    const send = transport({ allowedNetworks: networks(['127.0.0.1/32']) });
    lookups = [];
    const answer = await send(`http://loopback.example:${port}/echo`, get());
    if ('refused' in answer) throw new Error(answer.refused);
    // The system cannot resolve the name: the connection went to the vetted address, looked up once.
    expect(await answer.json()).toMatchObject({ host: `loopback.example:${port}` });
    expect(lookups).toEqual(['loopback.example']);
  });

  it('sends the method, headers and form body, and answers status, headers and body as fetch does', async () => {
    const send = transport({ loopback: true });
    const answer = await send(`http://127.0.0.1:${port}/echo`, {
      ...get(),
      method: 'POST',
      headers: { 'user-agent': 'Svc/test' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'c' }),
    });
    if ('refused' in answer) throw new Error(answer.refused);
    expect(answer).toBeInstanceOf(Response);
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await answer.json()).toEqual({
      method: 'POST',
      host: `127.0.0.1:${port}`,
      type: 'application/x-www-form-urlencoded;charset=UTF-8',
      agent: 'Svc/test',
      body: 'grant_type=authorization_code&code=c',
    });
  });

  it('follows no redirect, and answers a 204 without a body', async () => {
    const send = transport({ loopback: true });
    const moved = await send(`http://127.0.0.1:${port}/moved`, get());
    if ('refused' in moved) throw new Error(moved.refused);
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toBe('/echo');
    const empty = await send(`http://127.0.0.1:${port}/empty`, get());
    if ('refused' in empty) throw new Error(empty.refused);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it('fails as fetch fails: a TypeError when nothing answers, the signal reason at the deadline', async () => {
    const send = transport({ loopback: true });
    await expect(send('http://127.0.0.1:9/', get())).rejects.toThrow(TypeError);
    await expect(send('https://no-such-host.invalid/', get())).rejects.toThrow(TypeError);
    await expect(
      send(`http://127.0.0.1:${port}/silent`, { ...get(), signal: AbortSignal.timeout(100) }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
