import { SvcValidationError } from '../kernel/errors.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function invalid(message: string): SvcValidationError {
  return new SvcValidationError(message, [{ path: 'resetUrlTemplate', message }]);
}

/**
 * Checks an app-owned reset URL template before any delivery. docs/reference/sign-in.md "Password reset": An app-owned
 * reset URL builder output must be an absolute HTTPS URL without user info (loopback HTTP allowed only for
 * local development). The template must contain `{token}`, otherwise the link could not work.
 */
export function validateResetUrlTemplate(template: string, development: boolean): void {
  if (!template.includes('{token}')) throw invalid('The reset URL template must contain {token}.');
  let url: URL;
  try {
    url = new URL(template.replaceAll('{token}', 'token'));
  } catch {
    throw invalid('The reset URL template must be an absolute URL.');
  }
  if (url.username !== '' || url.password !== '') {
    throw invalid('The reset URL template must not contain user info.');
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(loopbackHttp && development)) {
    throw invalid('The reset URL template must be an HTTPS URL (loopback HTTP only in development).');
  }
}

/** The link for one token: `{token}` replaced by the URL-escaped token (docs/reference/sign-in.md "Password reset"). */
export function fillResetUrlTemplate(template: string, token: string): string {
  return template.replaceAll('{token}', encodeURIComponent(token));
}
