/**
 * Reading the raw /authorize query: which parameters Svc knows, repeated parameters, empty values, and
 * the small value grammars (prompt, max_age, view). Pure; `authorize-request.ts` applies the rules.
 */

/** OpenID Connect Core §3.1.2.1 prompt values. */
export const AUTHORIZE_PROMPTS = ['none', 'login', 'consent', 'select_account'] as const;
export type AuthorizePrompt = (typeof AUTHORIZE_PROMPTS)[number];

/**
 * docs/reference/tokens-and-sessions.md "The authorization request": view is one of "the service, login, signup, password,
 * forgot-password, email-otp, phone-otp, phone-otp-signup"; "the service" is named `svc` (docs/reference/tokens-and-sessions.md "The authorization request").
 */
export const AUTHORIZE_VIEWS = [
  'svc',
  'login',
  'signup',
  'password',
  'forgot-password',
  'email-otp',
  'phone-otp',
  'phone-otp-signup',
] as const;
export type AuthorizeView = (typeof AUTHORIZE_VIEWS)[number];

/**
 * The parameters Svc reads. RFC 6749 §3.1: they "MUST NOT be included more than once" and unrecognized
 * ones "MUST" be ignored. `resource` is not listed: RFC 8707 lets it repeat, and Svc answers a repeat
 * with invalid_target (one resource per grant) instead.
 */
const SINGLE_PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'response_mode',
  'nonce',
  'login_hint',
  'prompt',
  'max_age',
  'view',
  'ui_context',
  'invitation_token',
  'invitationToken',
  'request',
  'request_uri',
] as const;
export type AuthorizeParameter = (typeof SINGLE_PARAMETERS)[number];

/** The parameters of one request, each at most once. */
export interface AuthorizeParams {
  /** Present parameters with their value. Empty values are absent (RFC 6749 §3.1), except `state`. */
  readonly values: ReadonlyMap<AuthorizeParameter, string>;
  /** Every `resource` value sent (RFC 8707 allows several), empty ones left out. */
  readonly resources: readonly string[];
  /** The first known parameter sent more than once (or not as a string), or null. */
  readonly repeated: AuthorizeParameter | null;
}

/**
 * Reads the known parameters from a parsed query (`string | string[]` values, as Node's querystring
 * parser yields). "Parameters sent without a value MUST be treated as if they were omitted" (RFC 6749
 * §3.1); `state` is the exception because docs/reference/tokens-and-sessions.md "The authorization request" bounds it at 1-2048 characters when present, so an
 * empty `state=` is reported rather than ignored.
 */
export function readAuthorizeParams(query: unknown): AuthorizeParams {
  const raw = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  const values = new Map<AuthorizeParameter, string>();
  let repeated: AuthorizeParameter | null = null;
  for (const name of SINGLE_PARAMETERS) {
    if (!Object.hasOwn(raw, name)) continue;
    const value = singleValue(raw[name]);
    if (value === null) {
      repeated ??= name;
      continue;
    }
    if (value !== '' || name === 'state') values.set(name, value);
  }
  const resourceValue = Object.hasOwn(raw, 'resource') ? raw.resource : undefined;
  const resourceList = Array.isArray(resourceValue) ? resourceValue : [resourceValue];
  const resources = resourceList.filter((v): v is string => typeof v === 'string' && v !== '');
  return { values, resources, repeated };
}

/** A single string value, or null for a repeated or non-string value. */
function singleValue(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') return value[0];
  return null;
}

/** A parsed prompt: the set of values, or the reason it is invalid. */
export type PromptParseResult =
  | { readonly ok: true; readonly prompt: ReadonlySet<AuthorizePrompt> }
  | { readonly ok: false; readonly description: string };

/**
 * OpenID Connect Core §3.1.2.1: a space-delimited list; `none` "MUST NOT" be combined with any other
 * value. Unknown values are refused (invalid_request) rather than ignored, so that a typo such as
 * `prompt=consnet` cannot silently skip the consent a client asked for.
 */
export function parsePrompt(raw: string | undefined): PromptParseResult {
  const prompt = new Set<AuthorizePrompt>();
  if (raw === undefined) return { ok: true, prompt };
  for (const token of raw.split(' ')) {
    if (token === '') continue;
    if (!(AUTHORIZE_PROMPTS as readonly string[]).includes(token)) {
      return { ok: false, description: 'The prompt parameter holds an unsupported value.' };
    }
    prompt.add(token as AuthorizePrompt);
  }
  if (prompt.has('none') && prompt.size > 1) {
    return { ok: false, description: 'prompt=none cannot be combined with other prompt values.' };
  }
  return { ok: true, prompt };
}

/** max_age: non-negative integer seconds (docs/reference/tokens-and-sessions.md "The authorization request"), or undefined when it is anything else. */
export function parseMaxAge(raw: string): number | undefined {
  if (!/^\d{1,15}$/.test(raw)) return undefined;
  return Number(raw);
}

/** True for one of the views /authorize accepts. */
export function isAuthorizeView(value: string): value is AuthorizeView {
  return (AUTHORIZE_VIEWS as readonly string[]).includes(value);
}
