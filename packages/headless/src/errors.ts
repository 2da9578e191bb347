import type { SvcHeadlessActionResult } from './types.js';

/**
 * A non-2xx answer of the headless API (or a 2xx answer that is not JSON). A step that refused its
 * input (a wrong password or code, a missing field) answers 400 with the view to show again: `result`.
 */
export class SvcHeadlessError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The parsed JSON body, the raw text when it was not JSON, or null when empty. */
  readonly body: unknown;

  constructor(status: number, body: unknown, message?: string) {
    super(message ?? messageOf(status, body));
    this.name = 'SvcHeadlessError';
    this.status = status;
    this.body = body;
  }

  /** The server's error code (`error` of the body) when it sent one. */
  get code(): string | undefined {
    const error = isRecord(this.body) ? this.body.error : undefined;
    return typeof error === 'string' ? error : undefined;
  }

  /**
   * The action result of a step's error answer (`{ error, message, type: 'view', viewModel, … }`): render
   * its view again with `message`. Undefined for errors without a view (validation, expiry, origin).
   */
  get result(): SvcHeadlessActionResult | undefined {
    return isActionResult(this.body) ? this.body : undefined;
  }
}

/** Whether a parsed body has the shape of an SvcHeadlessActionResult. */
export function isActionResult(value: unknown): value is SvcHeadlessActionResult {
  return (
    isRecord(value) &&
    (value.type === 'view' || value.type === 'redirect') &&
    (typeof value.redirectUrl === 'string' || value.redirectUrl === null) &&
    (isRecord(value.viewModel) || value.viewModel === null)
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messageOf(status: number, body: unknown): string {
  const message = isRecord(body) ? body.message : undefined;
  return typeof message === 'string' && message !== '' ? message : `The headless API answered ${status}.`;
}
