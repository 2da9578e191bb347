/** The longest failure detail kept in the delivery log. */
export const FAILURE_DETAIL_MAX = 500;

/**
 * A failure detail safe to store and show: user info of any URL is masked (nodemailer may echo the
 * SMTP URL, `smtp://user:secret@host`), each given secret (the SMTP password) is removed wherever it
 * appears, and the text is cut to 500 characters. The message body is never part of it: only the
 * error's code and message are read.
 */
export function sanitizeFailure(error: unknown, secrets: readonly string[]): string {
  const code =
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
      ? `${(error as { code: string }).code}: `
      : '';
  const message = error instanceof Error ? error.message : 'Delivery failed.';
  let detail = `${code}${message}`.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1***@');
  for (const secret of secrets) {
    if (secret.length > 0) detail = detail.split(secret).join('***');
  }
  detail = detail.replace(/\s+/g, ' ').trim();
  return detail.length > FAILURE_DETAIL_MAX ? `${detail.slice(0, FAILURE_DETAIL_MAX - 1)}…` : detail;
}
