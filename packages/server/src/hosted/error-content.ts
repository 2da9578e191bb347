import { SvcError } from '../kernel/errors.js';
import { SvcHostedPageError } from '../signin/flow/page-error.js';

/** What the hosted error page shows for an error, and with which status. */
export interface ErrorPageContent {
  readonly status: number;
  readonly title: string;
  readonly message: string;
  readonly backHref?: string;
}

const GENERIC: Readonly<Record<number, { title: string; message: string }>> = {
  400: {
    title: 'This request cannot be completed',
    message:
      'Something about this request is not right. Go back to the application you came from and try again.',
  },
  404: {
    title: 'Page not found',
    message: 'This page does not exist. Go back to the application you came from and sign in again.',
  },
  413: {
    title: 'Too much data',
    message: 'The form sent more data than can be accepted. Go back and try again.',
  },
  415: {
    title: 'This form cannot be read',
    message: 'The form was sent in a format that cannot be accepted. Go back, reload the page and try again.',
  },
  429: {
    title: 'Too many attempts',
    message: 'There have been too many attempts. Wait a moment, then try again.',
  },
  503: {
    title: 'Try again in a moment',
    message:
      'Signing in is briefly unavailable. Nothing you entered was wrong. Wait a moment, then go back and try again.',
  },
  500: {
    title: 'Something went wrong',
    message: 'Your request could not be completed. Try again in a moment.',
  },
};

function generic(status: number): ErrorPageContent {
  const copy = GENERIC[status] ?? (status >= 500 ? GENERIC[500] : GENERIC[400]);
  return { status, title: copy?.title ?? 'Error', message: copy?.message ?? '' };
}

/**
 * Maps anything a hosted route or hook threw onto the error page: a SvcHostedPageError as written, an
 * exposed SvcError below 500 with its own message, a Fastify 4xx (bad form body, too large, wrong
 * content type) with plain words for its status; everything else, and every 5xx, as the one generic
 * "Something went wrong" with status 500 or the error's 5xx. Internals never reach the page.
 */
export function errorPageContent(error: unknown): ErrorPageContent {
  if (error instanceof SvcError && error.status < 500) {
    if (error instanceof SvcHostedPageError) {
      return {
        status: error.status,
        title: error.title,
        message: error.message,
        ...(error.backHref === undefined ? {} : { backHref: error.backHref }),
      };
    }
    return error.expose ? { ...generic(error.status), message: error.message } : generic(error.status);
  }
  if (error instanceof SvcError) return generic(error.status);
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 600) {
    return generic(status);
  }
  return generic(500);
}
