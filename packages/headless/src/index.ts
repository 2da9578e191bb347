/**
 * @svc/headless: a dependency-free client of the Svc headless sign-in API for browsers and Node 20+.
 * Its version equals the server's.
 */
export * from './actions.js';
export { createHeadlessClient, type FetchLike, type SvcHeadlessClientOptions } from './client.js';
export type { SvcHeadlessClient, SvcHeadlessStartInput, SvcHeadlessStartOptions } from './client-api.js';
export { SvcHeadlessError } from './errors.js';
export {
  base64UrlEncode,
  computeCodeChallenge,
  createCodeVerifier,
  createPkcePair,
  type PkcePair,
} from './pkce.js';
export {
  DEFAULT_HEADLESS_BASE_PATH,
  HEADLESS_VIEWS,
  type HeadlessView,
  type SvcHeadlessActionResult,
  type SvcHeadlessAuthorization,
  type SvcHeadlessMfaEnrollViewModel,
  type SvcHeadlessOrganizationSelection,
  type SvcHeadlessProvider,
  type SvcHeadlessScopeDetail,
  type SvcHeadlessStartRequest,
  type SvcHeadlessViewModel,
} from './types.js';
export { VERIFIER_KEY_PREFIX, type SvcHeadlessStorage } from './verifiers.js';
export { VERSION } from './version.js';
