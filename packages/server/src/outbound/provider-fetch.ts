import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pinnedLookup, trustedCertificates, vettedAddress, type DestinationRules } from './public-fetch.js';

export interface ProviderFetchOptions extends DestinationRules {
  /** PEM certificates trusted beside Node's roots (a provider behind an internal CA). */
  readonly caCertificates: readonly string[];
}

/** A destination refused before anything was sent: on this machine, or elsewhere off the internet. */
export interface RefusedDestination {
  readonly refused: 'loopback' | 'not_public';
}

/** The fetch of requests to providers: the answer, or the refusal of where it would have gone. */
export type ProviderFetch = (url: string, init: RequestInit) => Promise<Response | RefusedDestination>;

/** Statuses whose answer has no body (a Response refuses one). */
const NULL_BODY = new Set([204, 205, 304]);

/**
 * The transport of Svc's requests to identity providers (discovery, token, JWKS, UserInfo, GitHub's APIs,
 * and the calendar grants made through them). A discovery document can name any endpoint, so each
 * request's host is resolved and vetted like a public fetch's (outbound/public-fetch.ts): every address must
 * be public, in the operator's allowed networks, or loopback for a loopback host name while the operator
 * allows it; otherwise nothing is sent and the refusal is the answer. The connection goes to the vetted
 * address only, TLS still verifying the host name. Otherwise it behaves as `fetch` with
 * `redirect: 'manual'`: the answer as a Response, failures as a TypeError (the signal's reason when it
 * aborted).
 */
export function providerFetch(options: ProviderFetchOptions): ProviderFetch {
  const ca = trustedCertificates(options.caCertificates);
  return async (url, init) => {
    // A request without a signal is never cut off (openid-client always gives one).
    const signal = init.signal ?? new AbortController().signal;
    try {
      const request = new Request(url, init);
      const target = new URL(request.url);
      const address = await vettedAddress(target.hostname, options, signal);
      if ('refused' in address) return { refused: address.refused };
      const body = request.body === null ? null : Buffer.from(await request.arrayBuffer());
      const headers: Record<string, string> = Object.fromEntries(request.headers);
      if (body !== null) headers['content-length'] = String(body.length);
      const send = target.protocol === 'http:' ? httpRequest : httpsRequest;
      const incoming = await new Promise<IncomingMessage>((resolve, reject) => {
        const outgoing = send(target, {
          method: request.method,
          headers,
          agent: false,
          lookup: pinnedLookup(address),
          signal,
          ...(ca === undefined ? {} : { ca }),
        });
        outgoing.on('response', resolve);
        outgoing.on('error', reject);
        outgoing.end(body ?? undefined);
      });
      return answerOf(incoming, request.method);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new TypeError('fetch failed', { cause: error });
    }
  };
}

function answerOf(incoming: IncomingMessage, method: string): Response {
  const status = incoming.statusCode ?? 0;
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] ?? '', raw[i + 1] ?? '');
  if (NULL_BODY.has(status) || method === 'HEAD') {
    incoming.resume();
    return new Response(null, { status, headers });
  }
  const body = Readable.toWeb(incoming) as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers });
}
