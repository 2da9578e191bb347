import { SvcHostedPageError } from '../signin/flow/page-error.js';
import type { AntiforgeryFailure } from '../http/antiforgery.js';

/**
 * docs/reference/sign-in.md "Hosted pages": missing, expired, cross-browser or cross-origin submissions return 400 before
 * any processing. One message for every reason, so that a probe learns nothing about which check failed.
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
