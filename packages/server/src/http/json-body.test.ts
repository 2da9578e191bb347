import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { acceptJsonBodies, MAX_JSON_BODY_DEPTH, tooDeepAt } from './json-body.js';
import { jsonErrorHandler } from './errors.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('tooDeepAt', () => {
  it('names the top-level field holding nesting past the limit, and nothing within it', () => {
    expect(tooDeepAt({ a: JSON.parse(nested(3)) }, 4)).toBeUndefined();
    expect(tooDeepAt({ a: JSON.parse(nested(4)) }, 4)).toBe('a');
    expect(tooDeepAt({ ok: 1, b: { c: { d: {} } } }, 3)).toBe('b');
    expect(tooDeepAt(JSON.parse(nested(5)), 4)).toBe('0');
    expect(tooDeepAt('text', 0)).toBeUndefined();
  });

  it('walks a million levels without recursion', () => {
    expect(tooDeepAt({ deep: JSON.parse(nested(1_000_000)) }, MAX_JSON_BODY_DEPTH)).toBe('deep');
  });
});

describe('acceptJsonBodies', () => {
  const app = async (options: Parameters<typeof acceptJsonBodies>[1]) => {
    const host = Fastify();
    // A host's own JSON parser, which Svc's scope must not use.
    host.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, _body, done) => {
      done(null, { fromHost: true });
    });
    await host.register(async (scope) => {
      acceptJsonBodies(scope, options);
      scope.setErrorHandler(jsonErrorHandler);
      scope.post('/echo', async (request) => ({ body: request.body ?? null }));
    });
    return host;
  };
  const post = async (host: Awaited<ReturnType<typeof app>>, payload: string, type = 'application/json') => {
    const response = await host.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': type },
      payload,
    });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  };

  it("reads JSON with Fastify's parser and refuses nesting past the limit with a 400 naming the field", async () => {
    const host = await app({});
    expect(await post(host, '{"a":[[1]]}')).toEqual({ status: 200, body: { body: { a: [[1]] } } });
    expect(await post(host, '{"a":1}', 'application/json; charset=utf-8')).toEqual({
      status: 200,
      body: { body: { a: 1 } },
    });
    const deep = await post(host, `{"name":"x","list":${nested(MAX_JSON_BODY_DEPTH)}}`);
    expect(deep).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', details: [{ path: 'list', message: 'nested too deeply' }] },
    });
    expect(String(deep.body.message)).toContain('The field list of the request body nests deeper than 32');
    expect((await post(host, '{"__proto__":{"admin":true}}')).status).toBe(400);
    expect((await post(host, '')).status).toBe(400);
  });

  it('reads a blank body as none, and can drop a field nested too deeply instead of refusing', async () => {
    const host = await app({ blankIsNoBody: true, tooDeep: 'drop the field' });
    expect(await post(host, '  ')).toEqual({ status: 200, body: { body: null } });
    expect(await post(host, `{"keep":"x","drop":${nested(100_000)}}`)).toEqual({
      status: 200,
      body: { body: { keep: 'x' } },
    });
    expect((await post(host, nested(100_000))).status).toBe(400);
  });
});
