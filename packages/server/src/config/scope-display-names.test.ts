import { describe, expect, it } from 'vitest';
import { SvcConfigError } from '../kernel/errors.js';
import type { ScopeDisplayNameOptions } from './options.js';
import { resolveConfig } from './resolve.js';

/** `createSvc({ scopeDisplayNames })`: checked at start with the operator API's rules. */
describe('scopeDisplayNames option', () => {
  it('keeps valid entries, trimmed, without a description as null; none by default', () => {
    expect(resolveConfig({}).scopeDisplayNames).toEqual([]);
    expect(
      resolveConfig({
        scopeDisplayNames: [
          { scope: 'read:todos', displayName: '  Read your todos ', description: ' Lists and items. ' },
          { scope: 'email', displayName: 'Your work email', description: '' },
        ],
      }).scopeDisplayNames,
    ).toEqual([
      { scope: 'read:todos', displayName: 'Read your todos', description: 'Lists and items.' },
      { scope: 'email', displayName: 'Your work email', description: null },
    ]);
  });

  it.each<[unknown, RegExp]>([
    [
      { scope: 'read todos', displayName: 'x' },
      /scopeDisplayNames\[0\] is invalid: scope: must be an RFC 6749 scope token/,
    ],
    [{ scope: 'auth:admin', displayName: 'x' }, /scope: auth:\* scopes are internal/],
    [{ scope: 'a', displayName: '' }, /displayName: Too small/],
    [{ scope: 'a', displayName: 'x'.repeat(101) }, /displayName: Too big/],
    [{ scope: 'a', displayName: 'line\nbreak' }, /displayName: must not contain control characters/],
    [{ scope: 'a', displayName: 'x', description: 'y'.repeat(501) }, /description: Too big/],
    [null, /scopeDisplayNames\[0\] is invalid: .*expected object/],
  ])('refuses %j with a message naming the entry and the field', (entry, message) => {
    const options = { scopeDisplayNames: [entry as ScopeDisplayNameOptions] };
    expect(() => resolveConfig(options)).toThrow(SvcConfigError);
    expect(() => resolveConfig(options)).toThrow(message);
  });

  it('refuses two entries for one scope', () => {
    expect(() =>
      resolveConfig({
        scopeDisplayNames: [
          { scope: 'email', displayName: 'A' },
          { scope: 'email', displayName: 'B' },
        ],
      }),
    ).toThrow("scopeDisplayNames names scope 'email' twice.");
  });
});
