import { describe, expect, it } from 'vitest';
import { clientRecord } from '../test-support/client-record.js';
import { checkResource, isAbsoluteUriWithoutFragment, isResourceAllowed } from './resource-indicators.js';

const client = clientRecord({
  audience: 'https://api.example.com',
  allowedResources: ['https://files.example.com/', 'urn:example:billing'],
});

describe('isAbsoluteUriWithoutFragment', () => {
  it.each([
    ['https://api.example.com', true],
    ['https://api.example.com/v1?x=1', true],
    ['urn:example:billing', true],
    ['api.example.com', false],
    ['/relative/path', false],
    ['', false],
    ['https://api.example.com/#frag', false],
    ['https://api.example.com/#', false],
    ['https://api.example.com/ x', false],
    ['https://api.example.com/\u0000', false],
    [`https://api.example.com/${'a'.repeat(2048)}`, false],
  ])('%j → %s', (value, expected) => {
    expect(isAbsoluteUriWithoutFragment(value)).toBe(expected);
  });
});

describe('isResourceAllowed', () => {
  it('allows the audience and the allowedResources, as exact strings', () => {
    expect(isResourceAllowed(client, 'https://api.example.com')).toBe(true);
    expect(isResourceAllowed(client, 'urn:example:billing')).toBe(true);
    expect(isResourceAllowed(client, 'https://files.example.com/')).toBe(true);
    // No normalization: a trailing slash or a case change is another resource.
    expect(isResourceAllowed(client, 'https://api.example.com/')).toBe(false);
    expect(isResourceAllowed(client, 'https://files.example.com')).toBe(false);
    expect(isResourceAllowed(client, 'HTTPS://api.example.com')).toBe(false);
  });
});

describe('checkResource', () => {
  it('binds nothing when no resource is sent', () => {
    expect(checkResource([], client)).toEqual({ ok: true, resource: null });
  });

  it('binds one allowed resource', () => {
    expect(checkResource(['urn:example:billing'], client)).toEqual({
      ok: true,
      resource: 'urn:example:billing',
    });
  });

  it.each([
    ['two resources', ['https://api.example.com', 'urn:example:billing'], 'Only one resource'],
    ['a relative reference', ['/api'], 'absolute URI'],
    ['a fragment', ['https://api.example.com#x'], 'absolute URI'],
    ['a resource the client may not use', ['https://evil.example.com'], 'not allowed'],
  ])('refuses %s', (_name, resources, message) => {
    const result = checkResource(resources, client);
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.description).toContain(message);
  });
});
