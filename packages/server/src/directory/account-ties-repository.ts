/**
 * What makes an account someone's beyond one SCIM connection (docs/decisions/scim-tenant-boundary.md):
 * - `operator`: an operator account;
 * - `credential`: a way of its own to sign in (the credential rule): a password, a phone number, an
 *   authenticator app, and a passkey once Svc has them (its table joins the storage's list);
 * - `identity`: a linked OIDC or SAML identity;
 * - `session`: a token session or an issuer (browser) session, live or ended, or a consent given;
 * - `membership`: a membership in another organization, active or not;
 * - `directory`: a SCIM record of another connection.
 * A connection never makes any of these for an account it created, so an account without them belongs
 * to no one but that connection.
 */
export type AccountTie = 'operator' | 'credential' | 'identity' | 'session' | 'membership' | 'directory';

/** The organization and SCIM connection whose own membership and record are no tie. */
export interface AccountTieScope {
  readonly organizationId: string;
  readonly scimConnectionId: string;
}

export interface AccountTieRepository {
  /** The account's ties beyond the scope, each named once; none for an unknown account. */
  tiesOf(userId: string, scope: AccountTieScope): Promise<AccountTie[]>;
}
