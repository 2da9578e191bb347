import { SvcError } from '../kernel/errors.js';
import type { AntiforgeryFailure } from '../http/antiforgery.js';

/**
 * An error that a hosted route answers with the hosted error page: a title, a message written for the
 * person in front of the browser, and optionally a same-origin link to go back to.
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

/**
 * SPEC.md "Hosted pages": "missing, expired, cross-browser or cross-origin submissions return 400 before
 * any processing". One message for every reason, so that a probe learns nothing about which check failed.
 */
export class HostedAntiforgeryError extends SvcHostedPageError {
  readonly reason: AntiforgeryFailure;

  constructor(reason: AntiforgeryFailure) {
    super(
      'This form has expired',
      'For your security, forms work only for a limited time and only in the browser that opened them. ' +
        'Go back, reload the page and try again.',
      { status: 400, code: 'antiforgery_failed' },
    );
    this.reason = reason;
  }
}
