import { describe, expect, it } from 'vitest';
import { HOSTED_MESSAGES } from '../form.js';
import { renderIdentifyPage } from './identify-page.js';
import { renderPhoneSignInPage } from './phone-sign-in-page.js';
import { invalidFieldOf } from './signup-fields.js';
import { renderSignupPage } from './signup-page.js';
import { renderPhoneSignupPage } from './signup-phone-page.js';

const XSS = `"'><script>alert(1)</script>&\``;
const XSS_ESCAPED = '&quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#96;';
const FORM = { authBase: '/svc/auth', antiforgeryToken: '1767268800000.tok', requestId: 'azr_1&x=<y>' };
const REQUEST_QUERY = 'request_id=azr_1%26x%3D%3Cy%3E';

/** The attributes of the input with this id, as written (entities kept). */
function input(page: string, id: string): string {
  const match = new RegExp(`<input\\s+id="${id}"([^>]*)/>`, 's').exec(page);
  expect(match, `input #${id}`).not.toBeNull();
  return (match?.[1] ?? '').replace(/\s+/g, ' ');
}

describe('signup and phone page renderers', () => {
  it('signup: posts to /signup/submit, escapes typed values, never prefills the password, marks only the field at fault', () => {
    const page = renderSignupPage({
      ...FORM,
      clientName: XSS,
      displayName: XSS,
      email: 'ann@example.com',
      organizationName: XSS,
      error: HOSTED_MESSAGES.passwordTooShort,
      invalidField: invalidFieldOf('password_too_short') ?? '',
    });
    expect(page).toContain('<form method="post" action="/svc/auth/signup/submit">');
    expect(page).not.toContain('<script>');
    expect(input(page, 'display_name')).toContain(`value="${XSS_ESCAPED}"`);
    expect(input(page, 'organization_name')).toContain(`value="${XSS_ESCAPED}"`);
    expect(input(page, 'email')).toContain('value="ann@example.com"');
    const password = input(page, 'password');
    expect(password).toContain('type="password"');
    expect(password).toContain('autocomplete="new-password"');
    expect(password).toContain('minlength="8"');
    expect(password).not.toContain('value=');
    expect(password).toContain('aria-invalid="true"');
    expect(page.match(/aria-invalid/g)).toHaveLength(1);
    expect(page).toContain(HOSTED_MESSAGES.passwordTooShort);
    expect(page).toContain(`href="/svc/auth/login?${REQUEST_QUERY}&amp;step=identify"`);
    expect(page).not.toContain('/signup/phone-otp');
    expect(renderSignupPage({ ...FORM, phoneSignup: true })).toContain(
      `href="/svc/auth/signup/phone-otp?${REQUEST_QUERY}"`,
    );
  });

  it('phone signup: posts to /signup/phone-otp/start with a tel input and links back to email signup', () => {
    const page = renderPhoneSignupPage({
      ...FORM,
      phoneNumber: XSS,
      error: HOSTED_MESSAGES.phoneInvalid,
      invalidField: invalidFieldOf('phone_invalid') ?? '',
    });
    expect(page).toContain('<form method="post" action="/svc/auth/signup/phone-otp/start">');
    const phone = input(page, 'phone_number');
    expect(phone).toContain('type="tel"');
    expect(phone).toContain('autocomplete="tel"');
    expect(phone).toContain(`value="${XSS_ESCAPED}"`);
    expect(phone).toContain('aria-invalid="true"');
    expect(input(page, 'display_name')).not.toContain('aria-invalid');
    expect(page).toContain(`href="/svc/auth/signup?${REQUEST_QUERY}"`);
  });

  it('phone sign-in: the number form, escaped, with a way back to the other sign-in methods', () => {
    const page = renderPhoneSignInPage({ ...FORM, phoneNumber: XSS, error: HOSTED_MESSAGES.phoneInvalid });
    expect(page).toContain('<form method="post" action="/svc/auth/login/phone-otp/start">');
    expect(input(page, 'phone_number')).toContain(`value="${XSS_ESCAPED}"`);
    expect(page).toContain('<h1 id="page-title">Sign in with your phone</h1>');
    expect(page).toContain('Sign in another way');
  });

  it('identify: phone and signup links only when offered', () => {
    const plain = renderIdentifyPage(FORM);
    expect(plain).not.toContain('Text me a sign-in code');
    expect(plain).not.toContain('Create an account');
    const both = renderIdentifyPage({ ...FORM, phoneSignIn: true, signup: true });
    expect(both).toContain(`href="/svc/auth/login/phone-otp?${REQUEST_QUERY}">Text me a sign-in code</a>`);
    expect(both).toContain(`href="/svc/auth/signup?${REQUEST_QUERY}">Create an account</a>`);
  });
});
