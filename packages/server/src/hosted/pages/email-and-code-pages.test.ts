import { describe, expect, it } from 'vitest';
import { hiddenFields } from '../../test-support/inject-browser.js';
import { HOSTED_MESSAGES } from '../form.js';
import { renderEmailSignInPage } from './email-sign-in-page.js';
import { renderEnterCodePage } from './enter-code-page.js';
import { renderMagicLinkPage } from './magic-link-page.js';
import { renderMagicLinkSentPage } from './magic-link-sent-page.js';

const XSS = `"'><script>alert(1)</script>&\``;
const XSS_ESCAPED = '&quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#96;';
const FORM = { authBase: '/svc/auth', antiforgeryToken: '1767268800000.tok', requestId: 'azr_1' };

/** Every link and form target of a page's body, in order (not the favicon and the stylesheet). */
const targets = (page: string) =>
  [...page.matchAll(/(?:href|action|formaction)="([^"]+)"/g)]
    .map((m) => m[1]?.replaceAll('&amp;', '&') ?? '')
    .filter((target) => !target.startsWith('data:') && !target.endsWith('.css'));

describe('email and code pages', () => {
  it('the enter-code page posts to the verify route of its channel and offers a new code from that channel', () => {
    const channels = [
      [
        'email_otp',
        '/svc/auth/login/email-otp/verify',
        '/svc/auth/login/email-otp?request_id=azr_1',
        'emailed',
      ],
      [
        'phone_otp',
        '/svc/auth/login/phone-otp/verify',
        '/svc/auth/login/phone-otp?request_id=azr_1',
        'texted',
      ],
      [
        'phone_otp_signup',
        '/svc/auth/signup/phone-otp/verify',
        '/svc/auth/signup/phone-otp?request_id=azr_1',
        'can be used for a new account',
      ],
    ] as const;
    for (const [challenge, verify, start, words] of channels) {
      const page = renderEnterCodePage({
        ...FORM,
        challenge,
        target: XSS,
        error: HOSTED_MESSAGES.codeInvalid,
      });
      expect(targets(page)).toEqual([verify, start, '/svc/auth/login?request_id=azr_1&step=identify']);
      expect(page).toContain(words);
      expect(page).toContain(`<strong>${XSS_ESCAPED}</strong>`);
      expect(page).not.toContain('<script>');
      expect(page).toMatch(/name="code"[^>]*autocomplete="one-time-code"[^>]*aria-invalid="true"/s);
      expect(hiddenFields(page)).toEqual({ _csrf: FORM.antiforgeryToken, request_id: 'azr_1' });
    }
  });

  it('the email sign-in page has one address field and two buttons: a code, or a link through formaction', () => {
    const page = renderEmailSignInPage({
      ...FORM,
      email: XSS,
      clientName: 'Todo',
      error: HOSTED_MESSAGES.emailInvalid,
    });
    expect(targets(page)).toEqual([
      '/svc/auth/login/email-otp/start',
      '/svc/auth/login/magic-link/start',
      '/svc/auth/login?request_id=azr_1&step=identify',
    ]);
    expect(page).toMatch(
      new RegExp(`id="email"[^>]*value="${XSS_ESCAPED.replaceAll('(', '\\(').replaceAll(')', '\\)')}"`, 's'),
    );
    expect(page).toContain('Email me a sign-in code');
    expect(page).toContain('Email me a sign-in link');
    expect(page).toContain(HOSTED_MESSAGES.emailInvalid);
  });

  it('the "check your email" page resends by post and leads back to the address form', () => {
    const page = renderMagicLinkSentPage({ ...FORM, target: XSS });
    expect(targets(page)).toEqual([
      '/svc/auth/login/magic-link/resend',
      '/svc/auth/login/email-otp?request_id=azr_1',
    ]);
    expect(page).toContain(`<strong>${XSS_ESCAPED}</strong>`);
    expect(hiddenFields(page)).toEqual({ _csrf: FORM.antiforgeryToken, request_id: 'azr_1' });
  });

  it("the link's landing page carries the token and the antiforgery token to POST /magic-link", () => {
    const page = renderMagicLinkPage({ authBase: '/svc/auth', antiforgeryToken: 'af', token: XSS });
    expect(targets(page)).toEqual(['/svc/auth/magic-link']);
    expect(hiddenFields(page)).toEqual({ _csrf: 'af', token: XSS });
    expect(page).not.toContain('<script>');
  });
});
