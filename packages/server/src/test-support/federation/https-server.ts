import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** The host names the test certificate is made out to (tests point them at 127.0.0.1 in their DNS). */
export const TLS_TEST_HOSTS = ['idp-metadata.test', 'other-idp.test'] as const;

/** A self-signed certificate for {@link TLS_TEST_HOSTS}, PEM; trust `certificate` as a CA to accept it. */
export interface TlsTestCertificate {
  readonly key: string;
  readonly certificate: string;
}

/** Shared by every worker and run on this machine, like the SAML test keys. */
const CACHE = join(tmpdir(), 'svc-tls-test-certificate-v1');

async function generate(): Promise<void> {
  const staging = mkdtempSync(join(tmpdir(), 'svc-tls-test-certificate-'));
  await promisify(execFile)('openssl', [
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
    `subjectAltName=${TLS_TEST_HOSTS.map((host) => `DNS:${host}`).join(',')}`,
    '-keyout',
    join(staging, 'server.key'),
    '-out',
    join(staging, 'server.crt'),
  ]);
  try {
    renameSync(staging, CACHE);
  } catch {
    // Another worker got there first: its certificate serves as well.
    rmSync(staging, { recursive: true, force: true });
  }
}

let loaded: Promise<TlsTestCertificate> | undefined;

/** The certificate, made with the `openssl` CLI once (kept in a temp folder), read once per worker. */
export function tlsTestCertificate(): Promise<TlsTestCertificate> {
  loaded ??= (async () => {
    if (!existsSync(join(CACHE, 'server.crt'))) await generate();
    return {
      key: readFileSync(join(CACHE, 'server.key'), 'utf8'),
      certificate: readFileSync(join(CACHE, 'server.crt'), 'utf8'),
    };
  })();
  return loaded;
}

export type HttpsHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** An HTTPS server on 127.0.0.1 and a random port, with the paths it was asked for. */
export interface HttpsTestServer {
  readonly port: number;
  /** `GET /path` of every request, in order. */
  readonly requests: string[];
  serve(handler: HttpsHandler): void;
  close(): Promise<void>;
}

export async function startHttpsServer(certificate: TlsTestCertificate): Promise<HttpsTestServer> {
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
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
