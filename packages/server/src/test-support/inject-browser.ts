import type { LightMyRequestResponse } from 'fastify';
import type { HostedTestApp } from './hosted-test-app.js';
import { TEST_ORIGIN } from './test-svc.js';

/** A parsed Set-Cookie header: the value and the attributes, lower-cased names. */
export interface SetCookie {
  readonly name: string;
  readonly value: string;
  readonly attributes: Readonly<Record<string, string>>;
}

/** Every Set-Cookie of a response. */
export function setCookies(response: LightMyRequestResponse): SetCookie[] {
  const header = response.headers['set-cookie'];
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
  return lines.map((line) => {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const at = pair.indexOf('=');
    return {
      name: pair.slice(0, at),
      value: decodeURIComponent(pair.slice(at + 1)),
      attributes: Object.fromEntries(
        attributes.map((attribute) => {
          const eq = attribute.indexOf('=');
          return eq === -1
            ? [attribute.toLowerCase(), '']
            : [attribute.slice(0, eq).toLowerCase(), attribute.slice(eq + 1)];
        }),
      ),
    };
  });
}

const decodeEntities = (value: string) =>
  value
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&#96;', '`')
    .replaceAll('&amp;', '&');

/** The hidden inputs of a page, decoded (name → value). */
export function hiddenFields(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)" \/>/g)) {
    fields[decodeEntities(match[1] ?? '')] = decodeEntities(match[2] ?? '');
  }
  return fields;
}

/** A link of a page: its href and its text (the pages put no markup inside their links). */
const LINK = /<a\b[^>]*\shref="([^"]*)"[^>]*>(.*?)<\/a\s*>/gs;

/** Options of a form post. */
export interface PostOptions {
  /** Leave out the page's `_csrf` field. */
  readonly withoutToken?: boolean;
  /** The Origin header to send; null sends none. @default the public origin */
  readonly origin?: string | null;
}

/** What the browser talks to: one app, or (scale-out tests) any node of several serving one issuer. */
export type InjectTarget = Pick<HostedTestApp, 'authBase' | 'inject'>;

/**
 * A browser over `inject()`: keeps cookies (one path, the auth base), remembers the hidden fields of the
 * last page (so a post carries its `_csrf` and `request_id`), and follows same-origin redirects.
 */
export class InjectBrowser {
  readonly cookies = new Map<string, string>();
  /** The last HTML page received. */
  page = '';
  /** The path and query of the last GET: where a followed chain of redirects ended. */
  url = '';
  readonly #hosted: InjectTarget;
  readonly #origin: string;

  constructor(hosted: InjectTarget, origin = TEST_ORIGIN) {
    this.#hosted = hosted;
    this.#origin = origin;
  }

  /** The hidden fields of the last page. */
  get fields(): Record<string, string> {
    return hiddenFields(this.page);
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    this.url = this.#path(url);
    return this.#send({ method: 'GET', url: this.url });
  }

  /** GET {authBase}/authorize with the parameters. */
  authorize(params: Readonly<Record<string, string>>): Promise<LightMyRequestResponse> {
    return this.get(`${this.#hosted.authBase}/authorize?${new URLSearchParams(params).toString()}`);
  }

  /** POST a form to {authBase}{path} with the last page's hidden fields plus `fields`. */
  async post(
    path: string,
    fields: Readonly<Record<string, string>> = {},
    options: PostOptions = {},
  ): Promise<LightMyRequestResponse> {
    const body = { ...this.fields, ...fields };
    if (options.withoutToken === true) delete body._csrf;
    const origin = options.origin === undefined ? this.#origin : options.origin;
    return this.#send({
      method: 'POST',
      url: `${this.#hosted.authBase}${path}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(origin === null ? {} : { origin }),
      },
      payload: new URLSearchParams(body).toString(),
    });
  }

  /** The href of the last page's link whose text is `text` (whitespace and tags aside), decoded; or undefined. */
  linkHref(text: string): string | undefined {
    for (const [, href = '', content = ''] of this.page.matchAll(LINK)) {
      // The link's text as a reader sees it: images and other inner tags aside.
      const words = content
        .replace(/<[^>]*>/g, '')
        .replace(/\s+/g, ' ')
        .trim();
      if (decodeEntities(words) === text) return decodeEntities(href);
    }
    return undefined;
  }

  /** GETs the last page's link whose text is `text`; throws when there is none (the test is then wrong). */
  async click(text: string): Promise<LightMyRequestResponse> {
    const href = this.linkHref(text);
    if (href === undefined) throw new Error(`No link "${text}" on the page`);
    return this.get(href);
  }

  /**
   * Signs in through the pages from a response that leads to the identify step (GET /authorize's):
   * identify, then password; returns the answer that follows (another page, or the client redirect).
   */
  async signIn(
    response: LightMyRequestResponse,
    email: string,
    password: string,
  ): Promise<LightMyRequestResponse> {
    await this.follow(response);
    await this.follow(await this.post('/login/identify', { email }));
    return this.follow(await this.post('/login/password', { password }));
  }

  /**
   * Opens a started device authorization's verification_uri_complete, sends its user code and signs in:
   * the answer that follows (the device approval page).
   */
  async signInToApproveDevice(
    started: { readonly verification_uri_complete: string; readonly user_code: string },
    email: string,
    password: string,
  ): Promise<LightMyRequestResponse> {
    await this.get(started.verification_uri_complete);
    return this.signIn(await this.post('/device/verify', { user_code: started.user_code }), email, password);
  }

  /**
   * Follows redirects that stay on this service (the hosted pages) and stops at the first answer that is
   * not one, or at a redirect elsewhere (the client's redirect_uri): returns that response.
   */
  async follow(response: LightMyRequestResponse): Promise<LightMyRequestResponse> {
    let current = response;
    for (let hops = 0; hops < 10; hops += 1) {
      const location = current.headers.location;
      if (current.statusCode < 300 || current.statusCode >= 400 || typeof location !== 'string')
        return current;
      if (!this.#isOwn(location)) return current;
      current = await this.get(location);
    }
    throw new Error('too many redirects');
  }

  /** The Location of a redirect as a URL (relative locations resolved against the public origin). */
  static location(response: LightMyRequestResponse): URL {
    const location = response.headers.location;
    if (typeof location !== 'string') throw new Error(`no Location (status ${response.statusCode})`);
    return new URL(location, TEST_ORIGIN);
  }

  #isOwn(location: string): boolean {
    const url = new URL(location, this.#origin);
    return url.origin === this.#origin && url.pathname.startsWith(this.#hosted.authBase);
  }

  #path(url: string): string {
    const parsed = new URL(url, this.#origin);
    return `${parsed.pathname}${parsed.search}`;
  }

  async #send(options: {
    method: 'GET' | 'POST';
    url: string;
    headers?: Record<string, string>;
    payload?: string;
  }): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.#hosted.inject({
      ...options,
      headers: { ...options.headers, ...(cookie === '' ? {} : { cookie }) },
    });
    for (const set of setCookies(response)) {
      if (set.attributes['max-age'] === '0' || set.value === '') this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    if (String(response.headers['content-type']).startsWith('text/html')) this.page = response.body;
    return response;
  }
}
