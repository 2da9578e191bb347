/**
 * @svc/headless: a dependency-free client of the Svc headless sign-in API for browsers and Node 20+.
 * Its version equals the server's.
 */
export {
  createHeadlessClient,
  SvcHeadlessError,
  type FetchLike,
  type SvcHeadlessClient,
  type SvcHeadlessClientOptions,
} from './client.js';
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
  type SvcHeadlessOrganizationSelection,
  type SvcHeadlessProvider,
  type SvcHeadlessStartRequest,
  type SvcHeadlessViewModel,
} from './types.js';
export { VERSION } from './version.js';
