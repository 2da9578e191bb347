import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { machineTestFolder } from '../machine-test-folder.js';

/** The host names the test certificate is made out to (tests point them at 127.0.0.1 in their DNS). */
export const TLS_TEST_HOSTS = ['idp-metadata.test', 'other-idp.test'] as const;

/** A self-signed certificate for {@link TLS_TEST_HOSTS}, PEM; trust `certificate` as a CA to accept it. */
export interface TlsTestCertificate {
  readonly key: string;
  readonly certificate: string;
}

function generate(staging: string): void {
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-sha256',
    '-days',
    '3650',
    '-subj',
    `/CN=${TLS_TEST_HOSTS[0]}`,
    '-addext',
    `subjectAltName=${[...TLS_TEST_HOSTS.map((host) => `DNS:${host}`), 'DNS:localhost', 'IP:127.0.0.1'].join(',')}`,
    '-keyout',
    join(staging, 'server.key'),
    '-out',
    join(staging, 'server.crt'),
  ]);
}

let loaded: Promise<TlsTestCertificate> | undefined;

/** The certificate, made with the `openssl` CLI once (kept in a temp folder), read once per worker. */
export function tlsTestCertificate(): Promise<TlsTestCertificate> {
  loaded ??= (async () => {
    const folder = machineTestFolder('svc-tls-test-certificate-v2', 'server.crt', generate);
    return {
      key: readFileSync(join(folder, 'server.key'), 'utf8'),
      certificate: readFileSync(join(folder, 'server.crt'), 'utf8'),
    };
  })();
  return loaded;
}

export type HttpsHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** An HTTPS server on loopback (127.0.0.1 unless told) and a random port, with the paths it was asked for. */
export interface HttpsTestServer {
  readonly port: number;
  /** `GET /path` of every request, in order. */
  readonly requests: string[];
  serve(handler: HttpsHandler): void;
  close(): Promise<void>;
}

export async function startHttpsServer(
  certificate: TlsTestCertificate,
  host = '127.0.0.1',
): Promise<HttpsTestServer> {
  let handler: HttpsHandler = (_request, response) => {
    response.statusCode = 503;
    response.end();
  };
  const requests: string[] = [];
  const server: Server = createServer(
    { key: certificate.key, cert: certificate.certificate },
    (request, response) => {
      requests.push(`${request.method ?? 'GET'} ${request.url ?? '/'}`);
      handler(request, response);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    serve: (next) => {
      handler = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
