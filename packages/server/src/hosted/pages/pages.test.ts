import { describe, expect, it } from 'vitest';
import { HOSTED_MESSAGES } from '../form.js';
import { STYLESHEET_PATH } from '../../http/pages/styles.js';
import { renderConsentPage } from './consent-page.js';
import { isSafeBackHref, renderErrorPage } from './error-page.js';
import { renderIdentifyPage } from './identify-page.js';
import { renderLoggedOutPage } from './logged-out-page.js';
import { renderForgotPasswordPage, renderForgotPasswordSentPage } from './password-forgot-page.js';
import { renderPasswordPage } from './password-page.js';
import {
  PASSWORD_RESET_MESSAGES,
  renderPasswordChangedPage,
  renderResetLinkInvalidPage,
  renderResetPasswordPage,
} from './password-reset-page.js';
import {
  renderInvitationPage,
  renderInvitationStep,
  renderJoinedPage,
} from '../invitations/invitation-pages.js';
import { renderSelectOrganizationPage } from './select-organization-page.js';

const VOID = new Set(['meta', 'link', 'input', 'br', 'hr', 'img']);
const TAG = /^<(\/?)([a-z][a-z0-9]*)((?:\s+[a-z][a-z0-9-]*(?:="[^"<>]*")?)*)\s*(\/?)>/;
const ATTRIBUTE = /\s+([a-z][a-z0-9-]*)(?:="([^"]*)")?/g;
const ENTITY = /^&(?:amp|lt|gt|quot|#39|#96);/;

interface Element {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
}

/**
 * A strict checker for the markup the renderers write: a doctype, then only well-formed tags with
 * double-quoted attributes, balanced nesting, known entities, no stray `<` or `>` in text and unique ids.
 * Returns the elements in document order for further assertions.
 */
function parseWellFormed(page: string): Element[] {
  expect(page.startsWith('<!doctype html>\n')).toBe(true);
  let rest = page.slice('<!doctype html>'.length);
  const stack: string[] = [];
  const elements: Element[] = [];
  const ids = new Set<string>();
  while (rest.length > 0) {
    if (rest.startsWith('<')) {
      const match = TAG.exec(rest);
      if (match === null) throw new Error(`Malformed tag at: ${rest.slice(0, 60)}`);
      const [whole, closing, name = '', attributeText = '', selfClosing] = match;
      if (selfClosing === '/') expect(VOID.has(name), `<${name} /> is not a void element`).toBe(true);
      if (closing === '/') {
        expect(stack.pop(), `closing </${name}>`).toBe(name);
      } else {
        const attributes: Record<string, string> = {};
        for (const [, key = '', value = ''] of attributeText.matchAll(ATTRIBUTE)) {
          expect(Object.hasOwn(attributes, key), `duplicate attribute ${key} on <${name}>`).toBe(false);
          for (const amp of value.matchAll(/&/g)) expect(value.slice(amp.index)).toMatch(ENTITY);
          attributes[key] = value;
        }
        if (attributes.id !== undefined) {
          expect(ids.has(attributes.id), `duplicate id ${attributes.id}`).toBe(false);
          ids.add(attributes.id);
        }
        elements.push({ name, attributes });
        if (!VOID.has(name)) stack.push(name);
      }
      rest = rest.slice(whole.length);
    } else {
      const end = rest.indexOf('<');
      const text = end === -1 ? rest : rest.slice(0, end);
      expect(text, 'text').not.toContain('>');
      for (const amp of text.matchAll(/&/g)) expect(text.slice(amp.index)).toMatch(ENTITY);
      rest = end === -1 ? '' : rest.slice(end);
    }
  }
  expect(stack, 'unclosed elements').toEqual([]);
  return elements;
}

/** Whitespace-insensitive markup: runs of whitespace become one space, none before `>` or `/>`. */
const squash = (markup: string) => markup.replace(/\s+/g, ' ').replace(/ (\/?>)/g, '$1');

/** The text a browser shows (tags dropped, entities decoded, whitespace collapsed). */
const visibleText = (markup: string) =>
  decode(markup.replace(/<\/?(?:strong|span|a|b)\b[^>]*>/g, '').replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();

const decode = (value: string) =>
  value
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&#96;', '`')
    .replaceAll('&amp;', '&');

const XSS = `"'><script>alert(1)</script>&\``;
const XSS_ESCAPED = '&quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#96;';
const AUTH_BASE = '/svc/auth';
const FORM = { authBase: AUTH_BASE, antiforgeryToken: '1767268800000.tok_en-1', requestId: `req_${XSS}` };

function find(elements: Element[], predicate: (e: Element) => boolean): Element {
  const found = elements.find(predicate);
  expect(found).toBeDefined();
  return found as Element;
}

function hidden(elements: Element[], name: string): string | undefined {
  return elements.find(
    (e) => e.name === 'input' && e.attributes.type === 'hidden' && e.attributes.name === name,
  )?.attributes.value;
}

/** What every hosted page has: layout, brand, title, stylesheet, no script and no raw user data. */
function expectPage(page: string, title: string): Element[] {
  const elements = parseWellFormed(page);
  const flat = squash(page);
  expect(find(elements, (e) => e.name === 'html').attributes).toEqual({ lang: 'en' });
  expect(elements).toContainEqual({ name: 'meta', attributes: { charset: 'utf-8' } });
  expect(elements).toContainEqual({
    name: 'meta',
    attributes: { name: 'viewport', content: 'width=device-width, initial-scale=1' },
  });
  expect(/<title>(.*?)<\/title>/.exec(flat)?.[1]).toBe(`${title} · Svc`);
  expect(flat).toContain('<p class="brand">Svc</p>');
  expect(elements).toContainEqual({
    name: 'link',
    attributes: { rel: 'stylesheet', href: `${AUTH_BASE}${STYLESHEET_PATH}` },
  });
  expect(elements.filter((e) => e.name === 'h1')).toHaveLength(1);
  expect(page).not.toContain('<script');
  expect(page).not.toContain('style=');
  return elements;
}

/** A form's action, method and hidden fields (decoded). */
function expectForm(elements: Element[], action: string) {
  expect(elements).toContainEqual({ name: 'form', attributes: { method: 'post', action } });
  expect(hidden(elements, '_csrf')).toBe(FORM.antiforgeryToken);
  expect(decode(hidden(elements, 'request_id') ?? '')).toBe(FORM.requestId);
}

describe('hosted page renderers', () => {
  it('identify step: email prefilled from login_hint, client named, inline error tied to the field', () => {
    const page = renderIdentifyPage({
      ...FORM,
      email: XSS,
      clientName: XSS,
      error: HOSTED_MESSAGES.emailInvalid,
    });
    const elements = expectPage(page, 'Sign in');
    expectForm(elements, `${AUTH_BASE}/login/identify`);
    const email = find(elements, (e) => e.attributes.id === 'email');
    expect(email.attributes).toMatchObject({
      name: 'email',
      type: 'email',
      autocomplete: 'username',
      required: '',
      'aria-invalid': 'true',
      'aria-describedby': 'form-error',
    });
    expect(decode(email.attributes.value ?? '')).toBe(XSS);
    expect(find(elements, (e) => e.name === 'label').attributes).toEqual({ for: 'email' });
    expect(squash(page)).toContain(
      `<p class="error" id="form-error" role="alert">${HOSTED_MESSAGES.emailInvalid}</p>`,
    );
    expect(squash(page)).toContain(`to continue to <strong>${XSS_ESCAPED}</strong>`);
    expect(visibleText(page)).toContain('Email Continue');
  });

  it('identify step without hint, client or error has an empty field and no error', () => {
    const page = renderIdentifyPage(FORM);
    const elements = expectPage(page, 'Sign in');
    expect(find(elements, (e) => e.attributes.id === 'email').attributes.value).toBe('');
    expect(page).not.toContain('role="alert"');
    expect(page).not.toContain('aria-invalid');
    expect(page).not.toContain('continue to');
  });

  it('password step: email read-only and posted again, "Forgot password?" and "Use a different account" for this request', () => {
    const page = renderPasswordPage({ ...FORM, email: XSS, error: HOSTED_MESSAGES.invalidCredentials });
    const elements = expectPage(page, 'Sign in');
    expect(visibleText(page)).toContain('Enter your password');
    expectForm(elements, `${AUTH_BASE}/login/password`);
    const email = find(elements, (e) => e.attributes.id === 'email');
    expect(email.attributes).toMatchObject({ name: 'email', readonly: '' });
    expect(decode(email.attributes.value ?? '')).toBe(XSS);
    expect(find(elements, (e) => e.attributes.id === 'password').attributes).toMatchObject({
      name: 'password',
      type: 'password',
      autocomplete: 'current-password',
      'aria-invalid': 'true',
    });
    expect(visibleText(page)).toContain('Email or password is incorrect.');
    const [forgot, different] = elements
      .filter((e) => e.name === 'a')
      .map((link) => new URL(decode(link.attributes.href ?? ''), 'http://localhost'));
    expect(forgot?.pathname).toBe(`${AUTH_BASE}/password/forgot`);
    expect(forgot?.searchParams.get('request_id')).toBe(FORM.requestId);
    expect(different?.pathname).toBe(`${AUTH_BASE}/login`);
    expect(different?.searchParams.get('request_id')).toBe(FORM.requestId);
    expect(visibleText(page)).toContain('Sign in Forgot password? Use a different account');
  });

  it('select organization: one submit button per organization carrying its id', () => {
    const organizations = [
      { id: 'org_1', name: XSS, slug: 'acme', role: 'admin' },
      { id: `org_${XSS}`, name: 'Globex' },
    ];
    const page = renderSelectOrganizationPage({ ...FORM, organizations, clientName: 'Todo app' });
    const elements = expectPage(page, 'Choose an organization');
    expectForm(elements, `${AUTH_BASE}/login/select-organization`);
    const buttons = elements.filter((e) => e.name === 'button');
    expect(
      buttons.map((b) => [b.attributes.type, b.attributes.name, decode(b.attributes.value ?? '')]),
    ).toEqual([
      ['submit', 'organization_id', 'org_1'],
      ['submit', 'organization_id', `org_${XSS}`],
    ]);
    const flat = squash(page);
    expect(flat).toContain(
      `<span class="choice-name">${XSS_ESCAPED}</span><span class="choice-meta">acme · admin</span>`,
    );
    expect(flat).toMatch(/<span class="choice-name">Globex<\/span>\s*<\/button>/);
    expect(visibleText(page)).toContain('Choose the organization to use with Todo app.');
    const withoutClient = renderSelectOrganizationPage({ ...FORM, organizations });
    expectPage(withoutClient, 'Choose an organization');
    expect(visibleText(withoutClient)).toContain('more than one organization. Choose one to continue.');
  });

  it('consent: client, account and scopes by display name, in words or raw names, Approve and Deny', () => {
    const named = (scope: string, displayName: string, description: string | null = null) => ({
      scope,
      displayName,
      description,
    });
    const raw = (scope: string) => ({ scope, displayName: null, description: null });
    const page = renderConsentPage({
      ...FORM,
      clientName: XSS,
      userEmail: 'ada@example.com',
      organizationName: 'Acme',
      scopes: [
        named('openid', 'Confirm who you are when you sign in'),
        named('read:todos', 'Read your <todos>', XSS),
        raw('write:todos'),
        raw(XSS),
      ],
    });
    const elements = expectPage(page, 'Allow access');
    expectForm(elements, `${AUTH_BASE}/consent/approve`);
    const flat = squash(page);
    expect(flat).toContain(`<h1 id="page-title">Allow ${XSS_ESCAPED} to access your account?</h1>`);
    expect(visibleText(page)).toContain('Signed in as ada@example.com in Acme');
    const items = [...flat.matchAll(/<li>\s*(.*?)\s*<\/li>/g)].map((m) => m[1]);
    expect(items).toEqual([
      'Confirm who you are when you sign in',
      `Read your &lt;todos&gt;<span class="scope-description">${XSS_ESCAPED}</span>`,
      '<span class="scope-name">write:todos</span>',
      `<span class="scope-name">${XSS_ESCAPED}</span>`,
    ]);
    const buttons = elements.filter((e) => e.name === 'button');
    expect(buttons.map((b) => b.attributes)).toEqual([
      { class: 'button button-primary', type: 'submit' },
      { class: 'button button-secondary', type: 'submit', formaction: `${AUTH_BASE}/consent/deny` },
    ]);
    expect(visibleText(page)).toMatch(/Approve Deny$/);
  });

  it('consent: an empty list says so', () => {
    const empty = renderConsentPage({ ...FORM, clientName: 'Todo app', scopes: [] });
    expectPage(empty, 'Allow access');
    expect(empty).not.toContain('<ul class="scopes">');
    expect(visibleText(empty)).toContain('Todo app is not asking for access to any of your information.');
  });

  it('logged-out page', () => {
    const page = renderLoggedOutPage({ authBase: AUTH_BASE });
    expectPage(page, 'Signed out');
    expect(visibleText(page)).toContain('You are signed out');
    expect(page).not.toContain('<form');
  });

  it('error page: title and message escaped, a back link only when it stays on this origin', () => {
    const page = renderErrorPage({
      authBase: AUTH_BASE,
      title: XSS,
      message: XSS,
      backHref: '/svc/auth/login?a=1&b=2',
    });
    const elements = expectPage(page, XSS_ESCAPED);
    expect(find(elements, (e) => e.name === 'a').attributes.href).toBe('/svc/auth/login?a=1&amp;b=2');
    expect(visibleText(page)).toContain(`${XSS} ${XSS} Go back`);
    for (const unsafe of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '/a\nb',
      'x',
    ]) {
      expect(isSafeBackHref(unsafe), unsafe).toBe(false);
      expect(
        renderErrorPage({ authBase: AUTH_BASE, title: 'T', message: 'M', backHref: unsafe }),
      ).not.toContain('<a ');
    }
    expect(renderErrorPage({ authBase: AUTH_BASE, title: 'T', message: 'M' })).not.toContain('<a ');
  });

  it('the checker itself rejects broken markup', () => {
    expect(() => parseWellFormed('<!doctype html>\n<p><b></p></b>')).toThrow();
    expect(() => parseWellFormed('<!doctype html>\n<p>a > b</p>')).toThrow();
    expect(() => parseWellFormed('<!doctype html>\n<p title=x>a</p>')).toThrow();
    expect(() => parseWellFormed('<!doctype html>\n<p>&nbsp</p>')).toThrow();
    expect(() => parseWellFormed('<!doctype html>\n<div />')).toThrow();
  });
});

describe('password reset and invitation page renderers', () => {
  const links = (elements: Element[]) =>
    elements
      .filter((e) => e.name === 'a')
      .map((e) => new URL(decode(e.attributes.href ?? ''), 'http://localhost'));

  it('forgot password: the email posted to /password/forgot/submit, the request carried, back to sign in', () => {
    const page = renderForgotPasswordPage({
      ...FORM,
      email: XSS,
      error: HOSTED_MESSAGES.emailInvalid,
      backHref: `${AUTH_BASE}/login?request_id=r`,
    });
    const elements = expectPage(page, 'Reset your password');
    expectForm(elements, `${AUTH_BASE}/password/forgot/submit`);
    expect(find(elements, (e) => e.attributes.id === 'email').attributes).toMatchObject({
      name: 'email',
      type: 'email',
      'aria-invalid': 'true',
    });
    expect(page).toContain(`value="${XSS_ESCAPED}"`);
    expect(links(elements).map((url) => url.pathname)).toEqual([`${AUTH_BASE}/login`]);

    // Without a request the page stands alone: no empty request_id, no link back.
    const alone = parseWellFormed(renderForgotPasswordPage({ ...FORM, requestId: null }));
    expect(hidden(alone, 'request_id')).toBeUndefined();
    expect(links(alone)).toEqual([]);
  });

  it('check your email: no form and no address, only the optional way back', () => {
    const page = renderForgotPasswordSentPage({ authBase: AUTH_BASE });
    const elements = expectPage(page, 'Check your email');
    expect(page).not.toContain('<form');
    expect(visibleText(page)).toContain('expires in 30 minutes');
    expect(links(elements)).toEqual([]);
    const back = renderForgotPasswordSentPage({ authBase: AUTH_BASE, backHref: `${AUTH_BASE}/login?x=1` });
    expect(links(expectPage(back, 'Check your email')).map((url) => url.pathname)).toEqual([
      `${AUTH_BASE}/login`,
    ]);
  });

  it('reset form: the token in a hidden field, two new-password fields, the error tied to the first', () => {
    const page = renderResetPasswordPage({ ...FORM, token: XSS, error: PASSWORD_RESET_MESSAGES.mismatch });
    const elements = expectPage(page, 'Choose a new password');
    expectForm(elements, `${AUTH_BASE}/password/reset/submit`);
    expect(decode(hidden(elements, 'token') ?? '')).toBe(XSS);
    expect(find(elements, (e) => e.attributes.id === 'new-password').attributes).toMatchObject({
      name: 'new_password',
      autocomplete: 'new-password',
      'aria-invalid': 'true',
      'aria-describedby': 'form-error password-rules',
    });
    expect(find(elements, (e) => e.attributes.id === 'confirm-password').attributes).toMatchObject({
      name: 'confirm_password',
    });
    expect(visibleText(page)).toContain(PASSWORD_RESET_MESSAGES.mismatch);
  });

  it('invalid link and password changed: a new link, and sign-in guidance back to the request when there is one', () => {
    const invalid = renderResetLinkInvalidPage({ authBase: AUTH_BASE, requestId: XSS });
    const [again] = links(expectPage(invalid, 'This reset link is no longer valid'));
    expect(again?.pathname).toBe(`${AUTH_BASE}/password/forgot`);
    expect(again?.searchParams.get('request_id')).toBe(XSS);

    const changed = renderPasswordChangedPage({ authBase: AUTH_BASE, signInHref: `${AUTH_BASE}/login?r=1` });
    expect(links(expectPage(changed, 'Password changed')).map((url) => url.pathname)).toEqual([
      `${AUTH_BASE}/login`,
    ]);
    const alone = renderPasswordChangedPage({ authBase: AUTH_BASE });
    expect(links(expectPage(alone, 'Password changed'))).toEqual([]);
    expect(visibleText(alone)).toContain('sign in with your new password');
  });

  it('invitation pages: each kind posts the token to its own form; names are escaped', () => {
    const summary = { email: 'ann@example.com', organizationName: XSS, role: 'editor', clientName: XSS };
    const context = { authBase: AUTH_BASE, antiforgeryToken: FORM.antiforgeryToken, token: XSS };
    const forms = {
      confirm: `${AUTH_BASE}/invitations/accept`,
      password: `${AUTH_BASE}/invitations/accept/password`,
      signup: `${AUTH_BASE}/invitations/accept/signup`,
    } as const;
    for (const [kind, action] of Object.entries(forms)) {
      const page = renderInvitationPage(
        kind === 'confirm'
          ? { kind: 'confirm', summary }
          : { kind: kind as 'password' | 'signup', summary, signedInAs: XSS },
        { ...context, error: 'not_signed_in' },
      );
      const elements = expectPage(page, 'Accept invitation');
      expect(elements).toContainEqual({ name: 'form', attributes: { method: 'post', action } });
      expect(hidden(elements, '_csrf')).toBe(FORM.antiforgeryToken);
      expect(decode(hidden(elements, 'token') ?? '')).toBe(XSS);
      expect(page).not.toContain(XSS);
      expect(visibleText(page)).toContain(`join ${XSS} as editor on ${XSS}`);
      expect(visibleText(page)).toContain('You are not signed in with the invited email address.');
    }
    const first = renderInvitationPage(
      { kind: 'sign_in_first', summary, signedInAs: null, continueUri: 'https://app.example.com/cb?a=1&b=2' },
      context,
    );
    const elements = expectPage(first, 'Accept invitation');
    expect(first).not.toContain('<form');
    expect(find(elements, (e) => e.name === 'a').attributes.href).toBe(
      'https://app.example.com/cb?a=1&amp;b=2',
    );
  });

  it('invitation step of a bound request: each kind posts the request id (never a token) to its sign-in form', () => {
    const summary = { email: 'ann@example.com', organizationName: XSS, role: 'editor', clientName: null };
    const context = { ...FORM, emailSignIn: true, error: HOSTED_MESSAGES.invalidCredentials };
    const forms = {
      password: `${AUTH_BASE}/login/password`,
      signup: `${AUTH_BASE}/login/invitation/signup`,
      sign_in_first: `${AUTH_BASE}/login/email-otp/start`,
    } as const;
    for (const [kind, action] of Object.entries(forms)) {
      const page = renderInvitationStep(
        kind === 'sign_in_first'
          ? { kind, summary, signedInAs: null, continueUri: null }
          : { kind: kind as 'password' | 'signup', summary, signedInAs: null },
        context,
      );
      const elements = expectPage(page, 'Accept invitation');
      expect(elements).toContainEqual({ name: 'form', attributes: { method: 'post', action } });
      expect(decode(hidden(elements, 'request_id') ?? '')).toBe(FORM.requestId);
      expect(hidden(elements, 'token')).toBeUndefined();
      expect(page).not.toContain(XSS);
      expect(visibleText(page)).toContain(HOSTED_MESSAGES.invalidCredentials);
    }
    const withoutCodes = renderInvitationStep(
      { kind: 'sign_in_first', summary, signedInAs: null, continueUri: null },
      { ...FORM, emailSignIn: false },
    );
    expect(withoutCodes).not.toContain('<form');
  });

  it('joined page: the membership and "Continue to" the application, or nothing to continue to', () => {
    const joined = {
      email: 'ann@example.com',
      organizationName: 'Acme',
      role: 'editor',
      clientName: 'Todo',
      continueUri: 'https://app.example.com/cb',
    };
    const page = renderJoinedPage(joined, AUTH_BASE);
    const elements = expectPage(page, 'Invitation accepted');
    expect(visibleText(page)).toContain('You have joined Acme');
    expect(find(elements, (e) => e.name === 'a').attributes.href).toBe('https://app.example.com/cb');
    expect(visibleText(page)).toContain('Continue to Todo');
    const alone = renderJoinedPage({ ...joined, continueUri: null }, AUTH_BASE);
    expect(links(expectPage(alone, 'Invitation accepted'))).toEqual([]);
  });
});
