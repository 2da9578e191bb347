/** What a client that describes itself may be: the scope ceiling, the limits, its tokens' audience. */
export interface SelfDescribedClientPolicy {
  /** The scope ceiling; empty: any scope within the limits below, as the client asks. */
  readonly allowedScopes: readonly string[];
  /** The audience of the access tokens of these clients. */
  readonly audience: string;
  readonly maxScopeCount: number;
  readonly maxScopeLength: number;
}

/** Dynamic client registration (RFC 7591; docs/reference/oauth-clients.md), validated. */
export interface DynamicClientRegistrationConfig extends SelfDescribedClientPolicy {
  /** `POST /register` is mapped and discovery names it. */
  readonly enabled: boolean;
}

/**
 * Client ID Metadata Documents (docs/reference/oauth-clients.md;
 * draft-ietf-oauth-client-id-metadata-document), validated.
 */
export interface ClientIdMetadataDocumentConfig extends SelfDescribedClientPolicy {
  /** A `client_id` that is an https URL is fetched as the client's metadata document. */
  readonly enabled: boolean;
  /** Host names (`app.example.com`) and subdomain patterns (`*.example.com`), lower case; empty: any host. */
  readonly allowedHosts: readonly string[];
  /** The whole fetch of one document gives up after this long. */
  readonly timeoutMs: number;
  /** PEM certificates trusted beside Node's roots. */
  readonly caCertificates: readonly string[];
  /** Documents from a loopback host, http too (SVC_CIMD_ALLOW_LOOPBACK; never by default). */
  readonly allowLoopback: boolean;
}
