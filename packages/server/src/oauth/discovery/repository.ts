/** Where the scope lists of registered clients come from (read per rebuild, not per request). */
export interface GrantableScopesSource {
  /** Every active client's allowed scopes. */
  allowedScopeLists(): Promise<string[][]>;
}
