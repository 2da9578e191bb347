import type { BlockList } from 'node:net';
import { SvcConfigError } from '../kernel/errors.js';
import { allowedNetworks } from '../outbound/public-fetch.js';
import type { ProviderFetchOptions } from './options.js';

/** The networks a server-side fetch reaches beyond public addresses; a wrong entry names `setting`. */
export function networksSetting(setting: string, entries: readonly string[]): BlockList {
  const networks = allowedNetworks(entries);
  if ('invalid' in networks) {
    throw new SvcConfigError(
      `${setting} entries must be IP addresses or CIDR ranges (10.20.0.0/16), got '${networks.invalid}'.`,
    );
  }
  return networks;
}

/** Requests to the providers of OpenID / social connections: where they may go beyond the internet. */
export interface ProviderFetchConfig {
  readonly allowedNetworks: BlockList;
  readonly caCertificates: readonly string[];
}

export function resolveProviderFetch(options: ProviderFetchOptions): ProviderFetchConfig {
  return {
    allowedNetworks: networksSetting('SVC_PROVIDER_ALLOWED_NETWORKS', options.allowedPrivateNetworks ?? []),
    caCertificates: options.caCertificates ?? [],
  };
}
