import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { SvcNotFoundError, SvcValidationError } from '../kernel/errors.js';
import { BASIC_CHALLENGE, oauthError } from '../oauth/errors.js';
import { oauthErrorHandler } from './oauth-error-handler.js';

const app = Fastify({ logger: false });
app.setErrorHandler(oauthErrorHandler);
const errors: Record<string, () => unknown> = {
  grant: () => oauthError.invalidGrant('The code has expired.'),
  basic: () =>
    oauthError.invalidClient('Client authentication failed.', { wwwAuthenticate: BASIC_CHALLENGE }),
  post: () => oauthError.invalidClient('Client authentication failed.'),
  slow: () => oauthError.slowDown('Poll less often.', { interval: 10 }),
  unavailable: () => oauthError.temporarilyUnavailable('Try again later.'),
  validation: () => new SvcValidationError('The grant_type parameter is required.'),
  notFound: () => new SvcNotFoundError('No such thing.'),
  crash: () => new Error('secret internals'),
};
app.get('/:kind', async (request) => {
  throw (errors[(request.params as { kind: string }).kind] ?? errors.crash)!();
});
afterAll(() => app.close());

async function call(kind: string) {
  const response = await app.inject({ method: 'GET', url: `/${kind}` });
  return { status: response.statusCode, headers: response.headers, body: response.json() as unknown };
}

describe('oauthErrorHandler', () => {
  it('answers an OAuthError with error and error_description, never cached', async () => {
    const response = await call('grant');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_grant', error_description: 'The code has expired.' });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
    expect(response.headers['www-authenticate']).toBeUndefined();
  });

  it('answers invalid_client with 401 and the Basic challenge after a Basic attempt', async () => {
    const response = await call('basic');
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Basic realm="svc"');
    expect(response.body).toEqual({
      error: 'invalid_client',
      error_description: 'Client authentication failed.',
    });
  });

  it('answers invalid_client without a challenge after client_secret_post', async () => {
    const response = await call('post');
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBeUndefined();
  });

  it('adds the polling interval to device errors', async () => {
    expect((await call('slow')).body).toEqual({
      error: 'slow_down',
      error_description: 'Poll less often.',
      interval: 10,
    });
  });

  it('exposes the description of a 503 OAuth error', async () => {
    const response = await call('unavailable');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'Try again later.',
    });
  });

  it('keeps mapping the other Svc errors', async () => {
    expect(await call('validation')).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'The grant_type parameter is required.' },
    });
    expect(await call('notFound')).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });

  it('answers an unknown error with a bare 500 that leaks nothing', async () => {
    const response = await call('crash');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ error: 'server_error', error_description: 'Internal server error.' });
  });
});
