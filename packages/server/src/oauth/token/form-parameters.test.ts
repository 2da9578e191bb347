import { describe, expect, it } from 'vitest';
import { OAuthError } from '../errors.js';
import { FormParameters } from './form-parameters.js';

function errorOf(action: () => unknown): OAuthError {
  try {
    action();
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
  throw new Error('expected an OAuthError');
}

describe('FormParameters', () => {
  it('reads single values; empty values count as omitted (RFC 6749 §3.2)', () => {
    const params = FormParameters.from({ grant_type: 'refresh_token', scope: '', client_id: [''] });
    expect(params.get('grant_type')).toBe('refresh_token');
    expect(params.get('scope')).toBeUndefined();
    expect(params.get('client_id')).toBeUndefined();
    expect(params.get('missing')).toBeUndefined();
  });

  it('a body-less request has no parameters', () => {
    expect(FormParameters.from(undefined).get('grant_type')).toBeUndefined();
    expect(FormParameters.from(null).all('resource')).toEqual([]);
  });

  it('require names the missing parameter', () => {
    const error = errorOf(() => FormParameters.from({}).require('code'));
    expect(error.error).toBe('invalid_request');
    expect(error.description).toBe('The code parameter is required.');
  });

  it('any repeated parameter is invalid_request, even an unknown one, naming it', () => {
    for (const name of ['grant_type', 'client_secret', 'x-extra']) {
      const error = errorOf(() => FormParameters.from({ grant_type: 'x', [name]: ['a', 'b'] }));
      expect(error.error).toBe('invalid_request');
      expect(error.description).toBe(`The ${name} parameter must not be repeated.`);
    }
  });

  it('a repeated parameter with an unprintable name is still refused without echoing the name', () => {
    const error = errorOf(() => FormParameters.from({ 'a\u0000b': ['1', '2'] }));
    expect(error.description).toBe('The same parameter must not be repeated.');
  });

  it('a value sent once plus an empty repeat is one value', () => {
    expect(FormParameters.from({ code: ['abc', ''] }).get('code')).toBe('abc');
  });

  it('resource may repeat (RFC 8707); all() returns every non-empty value', () => {
    const params = FormParameters.from({ resource: ['https://a.example', '', 'https://b.example'] });
    expect(params.all('resource')).toEqual(['https://a.example', 'https://b.example']);
  });

  it('a body that is not an object is invalid_request', () => {
    expect(errorOf(() => FormParameters.from('grant_type=x')).error).toBe('invalid_request');
    expect(errorOf(() => FormParameters.from(['a'])).error).toBe('invalid_request');
  });
});
