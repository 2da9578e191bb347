import { describe, expect, it } from 'vitest';
import { consolePath } from './console-paths.js';

describe('consolePath', () => {
  it('keeps the console home and its sections, with their queries', () => {
    for (const path of [
      '/svc/',
      '/svc/users',
      '/svc/users/usr_01J8ZQ',
      '/svc/audit?kind=admin.*&from=2026-12-01T00%3A00%3A00Z',
      '/svc/organizations/org_1/members/',
    ]) {
      expect(consolePath('/svc', path), path).toBe(path);
    }
  });

  it('refuses what would leave the console once a browser resolves it', () => {
    for (const path of [
      '//attacker.example/svc/users',
      'https://attacker.example/svc/users',
      '/svc',
      '/svcx/users',
      '/svc/auth/authorize',
      '/svc/admin/auth/api/users',
      '/svc/users/../auth/logout',
      '/svc/users/%2e%2e/%2E%2e/auth/logout',
      '/svc/users\\..\\auth',
      '/svc/users?x=1?y=2',
      '/svc/users?next=<script>',
      '/svc/users/a b',
      `/svc/users/${'a'.repeat(2000)}`,
    ]) {
      expect(consolePath('/svc', path), path).toBeNull();
    }
    expect(consolePath('/svc', undefined)).toBeNull();
    expect(consolePath('/svc', ['/svc/users'])).toBeNull();
  });

  it('follows a moved dashboard base', () => {
    expect(consolePath('/ops/console', '/ops/console/sessions')).toBe('/ops/console/sessions');
    expect(consolePath('/ops/console', '/svc/sessions')).toBeNull();
  });
});
