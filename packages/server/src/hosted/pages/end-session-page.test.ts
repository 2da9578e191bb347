import { describe, expect, it } from 'vitest';
import { hiddenFields } from '../../test-support/inject-browser.js';
import { renderEndSessionPage } from './end-session-page.js';

const XSS = `"'><script>alert(1)</script>&\``;
const XSS_ESCAPED = '&quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#96;';

describe('the sign-out confirmation page', () => {
  const page = renderEndSessionPage({
    authBase: '/svc/auth',
    antiforgeryToken: '1767268800000.tok',
    action: '/svc/auth/session/end/confirm',
    hidden: { client_id: 'web', post_logout_redirect_uri: 'https://app.example.com/bye', state: XSS },
    userEmail: `ada${XSS}@example.com`,
  });

  it('asks the question, names the account, and posts one form with its token and the request', () => {
    expect(page).toContain('<title>Sign out · Svc</title>');
    expect(page).toMatch(/<h1 id="page-title">Sign out of Svc\?<\/h1>/);
    expect(page).toContain(`<strong>ada${XSS_ESCAPED}@example.com</strong`);
    expect(page.match(/<form /g)).toHaveLength(1);
    expect(page).toContain('<form method="post" action="/svc/auth/session/end/confirm">');
    expect(hiddenFields(page)).toEqual({
      _csrf: '1767268800000.tok',
      client_id: 'web',
      post_logout_redirect_uri: 'https://app.example.com/bye',
      state: XSS,
    });
    expect(page.match(/<button /g)).toHaveLength(1);
    expect(page).toContain('close this page: you stay signed in');
    expect(page).not.toContain('<script>');
  });

  it('leaves out the account line when the address is unknown (a phone account)', () => {
    const anonymous = renderEndSessionPage({
      authBase: '/svc/auth',
      antiforgeryToken: 't',
      action: '/svc/auth/session/end/confirm',
      hidden: {},
    });
    expect(anonymous).not.toContain('Signed in as');
    expect(hiddenFields(anonymous)).toEqual({ _csrf: 't' });
  });
});
