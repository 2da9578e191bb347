import type { ImportSsoMetadataUrlInput, SvcSsoConnection } from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import type { SsoConnectionAdmin } from './connection-admin.js';
import { metadataUrl, type MetadataFetcher } from './metadata-fetch.js';
import { toSvcSsoConnection } from './views.js';

export interface SsoMetadataUrlImportDeps {
  readonly connections: Pick<SsoConnectionAdmin, 'get' | 'importMetadata'>;
  /** The fetch the setup portal uses too: https only, vetted addresses, one deadline, a size cap. */
  readonly fetcher: Pick<MetadataFetcher, 'fetch'>;
}

/**
 * An operator's import of an IdP's metadata from its URL (docs/reference/federation.md "A draft first,
 * metadata import enables"): Svc fetches the document as the setup portal does and imports it as the XML
 * import does, audited with `source: 'url'` and the host. Unlike the portal's, it is not rate limited:
 * operators are trusted with every connection already, and each import is audited.
 */
export class SsoMetadataUrlImport {
  readonly #deps: SsoMetadataUrlImportDeps;

  constructor(deps: SsoMetadataUrlImportDeps) {
    this.#deps = deps;
  }

  async importFromUrl(
    connectionId: string,
    input: ImportSsoMetadataUrlInput,
    actor?: AdminActor,
  ): Promise<SvcSsoConnection> {
    const { connections, fetcher } = this.#deps;
    // An unknown connection (404) or a URL Svc would not fetch (400) is refused before anything goes out.
    await connections.get(connectionId);
    metadataUrl(input.metadataUrl);
    const fetched = await fetcher.fetch(input.metadataUrl);
    const imported = await connections.importMetadata(
      connectionId,
      { metadataXml: fetched.metadataXml, enableConnection: input.enableConnection },
      actor,
      fetched.url,
    );
    return toSvcSsoConnection(imported);
  }
}
