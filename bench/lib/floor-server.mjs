// The HTTP floor of `npm run bench`: the cheapest JSON answer a Node server gives on this machine,
// with bare node:http and with Fastify (Svc's framework), each in this one child on its own port.
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { freePort, serveRpc } from './rpc.mjs';

const body = JSON.stringify({ hello: 'world' });
const bare = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
const bareport = await freePort();
await new Promise((resolve) => bare.listen(bareport, '127.0.0.1', resolve));

const fastify = Fastify({ logger: false });
fastify.get('/', async () => ({ hello: 'world' }));
const fastifyPort = await freePort();
await fastify.listen({ port: fastifyPort, host: '127.0.0.1' });

serveRpc(
  {},
  { node: `http://127.0.0.1:${bareport}/`, fastify: `http://127.0.0.1:${fastifyPort}/` },
  async () => {
    bare.close();
    await fastify.close();
  },
);
