import { SvcError } from '../../kernel/errors.js';

/**
 * An error of the sign-in that a surface shows as a page of its own: a title, a message written for the
 * person in front of the browser, and optionally a same-origin link to go back to (the hosted error page;
 * the headless API answers its code and message).
 */
export class SvcHostedPageError extends SvcError {
  readonly title: string;
  readonly backHref: string | undefined;

  constructor(
    title: string,
    message: string,
    options: { status?: number; code?: string; backHref?: string } = {},
  ) {
    super(options.code ?? 'hosted_error', message, { status: options.status ?? 400, expose: true });
    this.title = title;
    this.backHref = options.backHref;
  }
}
