import { request, type IncomingHttpHeaders } from 'node:http';

/** What came back over the socket: status, headers as Node's client read them, and the body as text. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * One request to a loopback port with Node's own client, which sends a HEAD and reads the headers of a
 * 304 as they came, where `fetch` would not show them as plainly.
 */
export function rawRequest(
  port: number,
  path: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, method, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    sent.on('error', reject);
    sent.end();
  });
}
