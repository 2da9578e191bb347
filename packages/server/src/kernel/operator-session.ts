/**
 * What the operator guard (http/operator-guard.ts) asks a cookie session that may stand for an operator
 * (the bundled dashboards', operator-dashboard/), and what it answers; a module of its own so that
 * neither side imports the other.
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
