import { SSO_METADATA_MAX_LENGTH } from '@svc/contract';
import type { PublicFetcher, PublicFetchResult } from '../../outbound/public-fetch.js';
import { SvcValidationError } from '../../kernel/errors.js';

/** What a fetch brought back: the document, and the URL it came from (the audit trail keeps its host). */
export interface FetchedMetadata {
  readonly metadataXml: string;
  readonly url: URL;
}

/** The whole fetch's deadline unless configured (docs/reference/federation.md "The portal API and page"). */
export const DEFAULT_METADATA_FETCH_TIMEOUT_MS = 5_000;

function refused(message: string): SvcValidationError {
  return new SvcValidationError(message, [{ path: 'metadataUrl', message }]);
}

/** Reads and checks the URL a customer typed: https, no credentials (400 otherwise). */
export function metadataUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refused('The metadata URL is not a URL: enter the full address, starting with https://.');
  }
  if (url.protocol !== 'https:') {
    throw refused('The metadata URL must start with https://: Svc fetches metadata over HTTPS only.');
  }
  if (url.username !== '' || url.password !== '') {
    throw refused('The metadata URL must not hold a user name or password.');
  }
  return url;
}

/**
 * Fetches an identity provider's SAML metadata from a URL a customer's admin typed, so it must not reach
 * what the admin could not (docs/reference/federation.md "The portal API and page"): `https:` only, public
 * addresses (or the allowed networks) only, no redirect followed, one deadline, the body cut off at the
 * metadata size limit (outbound/public-fetch.ts). Every refusal is a 400 naming at most the host that was typed.
 */
export class MetadataFetcher {
  readonly #fetcher: Pick<PublicFetcher, 'fetch'>;

  constructor(fetcher: Pick<PublicFetcher, 'fetch'>) {
    this.#fetcher = fetcher;
  }

  async fetch(value: string): Promise<FetchedMetadata> {
    const url = metadataUrl(value);
    const fetched = await this.#fetcher.fetch({
      url,
      accept: 'application/samlmetadata+xml, application/xml, text/xml',
      maxBytes: SSO_METADATA_MAX_LENGTH,
    });
    if (!fetched.ok) throw refused(failureMessage(fetched));
    return { metadataXml: fetched.body, url };
  }
}

/** What the admin is told when the fetch brought nothing back. */
function failureMessage(failure: Extract<PublicFetchResult, { ok: false }>): string {
  const { host } = failure;
  switch (failure.reason) {
    case 'not_public':
      return `The metadata URL's host ${host} is not a public address: Svc fetches metadata only from the internet. Download the metadata file and upload it instead.`;
    case 'timeout':
      return `The metadata URL took too long to answer (more than ${failure.seconds} second${failure.seconds === 1 ? '' : 's'}). Try again, or upload the metadata file.`;
    case 'certificate':
      return `The metadata URL's host ${host} could not be reached over HTTPS: its certificate was not accepted.`;
    case 'no_address':
      return `The metadata URL's host ${host} could not be reached: it has no address in DNS. Check the URL, or upload the metadata file.`;
    case 'unreachable':
      return `The metadata URL's host ${host} could not be reached. Check the URL, or upload the metadata file.`;
    case 'redirect':
      return `The metadata URL answered with a redirect (${failure.status}), which Svc does not follow: enter the final URL of the metadata.`;
    case 'status':
      return `The metadata URL answered ${failure.status} instead of the metadata. Check the URL.`;
    case 'too_large':
      return `The metadata at that URL is larger than ${failure.maxBytes} bytes, more than Svc accepts.`;
  }
}
