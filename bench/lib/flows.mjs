// The OAuth client side of the bench, over plain HTTP against either server: discovery, a cookie jar
// that signs the bench user in once (Svc's hosted pages; the peer's interaction route does it by
// itself), authorization codes minted ahead of the timed window, and their exchange for tokens.
import { API_AUDIENCE, PKCE, USER, WEB_CLIENT } from './fixtures.mjs';

const decode = (value) =>
  value
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&#96;', '`')
    .replaceAll('&amp;', '&');

/** What a page says, without its markup (for error messages). */
const pageText = (page) =>
  decode(
    page
      .replace(/<(style|head)[\s\S]*?<\/\1>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' '),
  )
    .trim()
    .slice(0, 300);

/** The endpoints of a target from its discovery document. */
export async function discover(target) {
  const url = `${target.info.issuer}/.well-known/openid-configuration`;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${target.name}: discovery answered ${response.status}`);
  const metadata = await response.json();
  return {
    discovery: url,
    jwks: metadata.jwks_uri,
    token: metadata.token_endpoint,
    authorize: metadata.authorization_endpoint,
    userinfo: metadata.userinfo_endpoint,
  };
}

/** A browser's cookie jar (names only: the bench talks to one server per jar) and manual redirects. */
export class Browser {
  #cookies = new Map();
  #origin;

  constructor(origin) {
    this.#origin = origin;
  }

  async fetch(url, init = {}) {
    const cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(new URL(url, this.#origin), {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, ...(cookie === '' ? {} : { cookie }) },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
    return response;
  }

  /**
   * Follows redirects from `url` until one leaves for the client's redirect URI and returns its code;
   * an HTML sign-in page on the way is filled in (email, then password) and posted with its hidden
   * fields, as a person would.
   */
  async authorizationCode(url) {
    let response = await this.fetch(url);
    for (let hops = 0; hops < 20; hops += 1) {
      const location = response.headers.get('location');
      if (location !== null && response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        if (location.startsWith(WEB_CLIENT.redirectUri)) {
          const code = new URL(location).searchParams.get('code');
          if (code === null) throw new Error(`no code: ${location}`);
          return code;
        }
        response = await this.fetch(new URL(location, url).toString());
        continue;
      }
      const page = await response.text();
      if (response.status !== 200)
        throw new Error(`sign-in: ${response.status} at ${response.url}: ${pageText(page)}`);
      response = await this.#submit(page, new URL(response.url || url, url));
    }
    throw new Error('sign-in: too many steps');
  }

  /** Posts the form of a sign-in page that asks for the email or the password. */
  async #submit(page, pageUrl) {
    for (const [, attributes = '', inner = ''] of page.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
      const field = /name="password"/.test(inner) ? 'password' : /name="email"/.test(inner) ? 'email' : null;
      if (field === null || !/method="post"/i.test(attributes)) continue;
      const target = decode(/action="([^"]*)"/.exec(attributes)?.[1] ?? pageUrl.pathname);
      const body = new URLSearchParams();
      for (const [, name, value] of inner.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
        body.set(decode(name), decode(value));
      body.set(field, field === 'password' ? USER.password : USER.email);
      return this.fetch(new URL(target, pageUrl).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.#origin },
        body: body.toString(),
      });
    }
    throw new Error(`sign-in: a page without a known form: ${pageText(page)}`);
  }
}

/** The authorization URL of the bench client (PKCE S256; `resource` names the API for the peer). */
export function authorizationUrl(endpoints, { resource }) {
  const url = new URL(endpoints.authorize);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: WEB_CLIENT.clientId,
    redirect_uri: WEB_CLIENT.redirectUri,
    scope: WEB_CLIENT.scope,
    code_challenge: PKCE.challenge,
    code_challenge_method: 'S256',
    nonce: 'bench-nonce',
    state: 'bench-state',
    ...(resource ? { resource: API_AUDIENCE } : {}),
  }).toString();
  return url.toString();
}

/**
 * Mints `n` authorization codes: the first alone, then `concurrency` silent authorizations at a time on
 * the signed-in browser (the issuer session answers at once with a code).
 */
export async function mintCodes(
  target,
  endpoints,
  n,
  { resource = target.name === 'peer', concurrency = 8 } = {},
) {
  target.browser ??= new Browser(target.info.origin);
  const url = authorizationUrl(endpoints, { resource });
  const codes = [];
  // The first authorization of each kind goes alone: it signs in or consents, and the jar keeps one
  // cookie per name, which parallel interactions would overwrite.
  target.authorized ??= new Set();
  if (!target.authorized.has(url)) {
    codes.push(await target.browser.authorizationCode(url));
    target.authorized.add(url);
  }
  let started = codes.length;
  const lane = async () => {
    while (started < n) {
      started += 1;
      codes.push(await target.browser.authorizationCode(url));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return codes.slice(0, n);
}

/** The form body of an authorization_code exchange of `code`. */
export const codeExchangeBody = (code) =>
  new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    client_id: WEB_CLIENT.clientId,
    redirect_uri: WEB_CLIENT.redirectUri,
    code_verifier: PKCE.verifier,
  }).toString();

/** The form body of a refresh_token grant. */
export const refreshBody = (refreshToken) =>
  new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: WEB_CLIENT.clientId,
  }).toString();

/** POSTs a token request and returns the JSON (throws on anything but 200). */
export async function tokenRequest(endpoints, body, headers = {}) {
  const response = await fetch(endpoints.token, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  const json = await response.json();
  if (response.status !== 200) throw new Error(`token endpoint: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Exchanges fresh codes for `n` token responses (`resource`: as in mintCodes). */
export async function mintTokens(target, endpoints, n, options = {}) {
  const codes = await mintCodes(target, endpoints, n, options);
  const responses = [];
  for (const code of codes) responses.push(await tokenRequest(endpoints, codeExchangeBody(code)));
  return responses;
}
