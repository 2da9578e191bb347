import type { OutgoingHttpHeaders } from 'node:http';
import { expect } from 'vitest';
import type { Svc } from '../app/create-svc.js';
import type { FakeClock } from './fake-clock.js';
import { TEST_ADMIN_TOKEN } from './test-svc.js';

export type OperatorMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface OperatorResponse {
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  /** The JSON body; `{}` for an empty or non-JSON one (see `text`). */
  readonly body: Record<string, unknown>;
  readonly text: string;
}

/** The Svc under test, asked for at each call (a suite makes it in beforeAll, after the calls are made). */
export type OperatorTarget = () => { readonly svc: Svc; readonly clock?: FakeClock };

/**
 * Calls an operator API of the target through `inject()` as the operator (or, with `authorized`
 * false, without the token), and checks what every answer must be: below 500, and never cached when
 * authorized. `path` is under `base` unless it is a whole `/svc/...` path (another surface, whose
 * caching is its own). With `ordered`, each call
 * first moves the target's clock a second, so that one test's events follow each other in the audit log.
 */
export function operatorApi(
  base: string,
  target: OperatorTarget,
  options: { readonly ordered?: boolean } = {},
) {
  return async (
    method: OperatorMethod,
    path: string,
    payload?: unknown,
    authorized = true,
  ): Promise<OperatorResponse> => {
    const { svc, clock } = target();
    if (options.ordered === true) clock?.advance(1000);
    const elsewhere = path.startsWith('/svc/');
    const response = await svc.app.inject({
      method,
      url: elsewhere ? path : `${base}${path}`,
      headers: {
        ...(authorized ? { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined
        ? {}
        : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
    expect(response.statusCode, response.body).toBeLessThan(500);
    if (authorized && !elsewhere) expect(response.headers['cache-control']).toBe('no-store');
    const json = String(response.headers['content-type']).includes('json') && response.body !== '';
    return {
      status: response.statusCode,
      headers: response.headers,
      body: json ? response.json<Record<string, unknown>>() : {},
      text: response.body,
    };
  };
}
