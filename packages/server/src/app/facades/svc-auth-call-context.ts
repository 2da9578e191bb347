/** Where an in-process or HTTP call comes from; the direct routes pass their route and the client address. */
export interface SvcAuthCallContext {
  /** Recorded in audit events (for example `/svc/auth/password/login`); defaults to the operation name. */
  readonly route?: string;
  readonly ipAddress?: string;
  readonly userAgent?: string;
  /**
   * The HTTP Authorization header a direct route received: a confidential client's client_secret_basic
   * credentials. In-process callers pass the request's `clientSecret` instead.
   */
  readonly authorization?: string;
}
