interface StoredCookie {
  readonly value: string;
  readonly path: string;
}

/**
 * The user's browser at a test provider, without a browser: fetch with a cookie jar (per origin, by
 * path prefix) that follows redirects by hand, so that a test sees where the provider sends the user.
 */
export class TestUserAgent {
  readonly #jar = new Map<string, Map<string, StoredCookie>>();

  /** Sets a cookie on an origin, as a sign-in at the provider would. */
  setCookie(origin: string, name: string, value: string, path = '/'): void {
    this.#cookies(origin).set(name, { value, path });
  }

  /** One request, redirects not followed; cookies sent and kept. */
  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookie = this.#cookieHeader(target);
    if (cookie !== '') headers.set('cookie', cookie);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) this.#keep(target, line);
    return response;
  }

  /**
   * Follows redirects from `url` while they stay on `origin` (the provider), rewriting each location
   * with `visit` (a test signs in there); answers the first location elsewhere (the relying party's
   * callback) or the final answer when the provider stops redirecting.
   */
  async follow(
    url: string | URL,
    origin: string,
    visit: (location: URL) => URL = (location) => location,
  ): Promise<{ location: URL } | { response: Response }> {
    let next = new URL(url);
    for (let hop = 0; hop < 20; hop++) {
      const response = await this.request(visit(next));
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) return { response };
      await response.body?.cancel();
      next = new URL(location, next);
      if (next.origin !== origin) return { location: next };
    }
    throw new Error(`Too many redirects from ${String(url)}`);
  }

  #cookies(origin: string): Map<string, StoredCookie> {
    let cookies = this.#jar.get(origin);
    if (cookies === undefined) {
      cookies = new Map();
      this.#jar.set(origin, cookies);
    }
    return cookies;
  }

  #cookieHeader(url: URL): string {
    const cookies = this.#jar.get(url.origin);
    if (cookies === undefined) return '';
    return [...cookies]
      .filter(([, cookie]) => url.pathname.startsWith(cookie.path))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
  }

  #keep(url: URL, line: string): void {
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    let path = '/';
    let expired = false;
    for (const attribute of attributes) {
      const [key = '', val = ''] = attribute.split('=');
      const lower = key.trim().toLowerCase();
      if (lower === 'path') path = val.trim() || '/';
      if (lower === 'max-age' && Number(val) <= 0) expired = true;
      if (lower === 'expires' && Date.parse(val) <= Date.now()) expired = true;
    }
    const cookies = this.#cookies(url.origin);
    // One cookie per name: a flow at a test provider holds one interaction at a time.
    if (expired || value === '') cookies.delete(name);
    else cookies.set(name, { value, path });
  }
}
