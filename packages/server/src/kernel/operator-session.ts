/**
 * What the operator guard (http/operator-guard.ts) asks a cookie session that may stand for an operator
 * (the bundled dashboards', operator-dashboard/) and the operator token (admin/operator-token.ts), and
 * what they answer; a module of its own so that neither side imports the other.
 */
export interface OperatorSessionRequest {
  readonly cookieHeader: string | undefined;
  /** A GET or HEAD changes nothing and needs no antiforgery token. */
  readonly safe: boolean;
  readonly csrfToken: string | undefined;
  readonly origin: string | undefined;
  readonly referer: string | undefined;
}

export type OperatorSessionDecision =
  | { readonly kind: 'operator'; readonly operatorId: string }
  | { readonly kind: 'refused' }
  | { readonly kind: 'csrf_failed' };

/** A cookie session that may stand for an operator; undefined when the request carries none. */
export interface OperatorSessionCheck {
  decide(request: OperatorSessionRequest): Promise<OperatorSessionDecision | undefined>;
}

/** What the operator API does with a request: serve it, or answer as an unknown route. */
export type OperatorTokenDecision = { readonly kind: 'operator' } | { readonly kind: 'refused' };

/** The operator token's check (SVC_ADMIN_TOKEN) of a presented bearer token from an address. */
export interface OperatorTokenVerifier {
  decide(presented: string | undefined, ipAddress: string): Promise<OperatorTokenDecision>;
}
