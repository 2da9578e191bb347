import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { devAdminToken } from '../cli/dev-admin-token.js';
import { SvcConfigError } from '../kernel/errors.js';
import { adminTokenIssue } from './admin-token.js';
import { resolveConfig } from './resolve.js';

describe('the operator token must carry at least 128 bits', () => {
  const generated = [
    ['openssl rand -hex 16', randomBytes(16).toString('hex')],
    ['openssl rand -hex 32', randomBytes(32).toString('hex')],
    ['openssl rand -base64 32', randomBytes(32).toString('base64')],
    ['22 base64url characters', 'Zk3q_Xr8Lm2pQ7sV9wB4tY'],
    ['the development token (24 random bytes)', randomBytes(24).toString('base64url')],
    ['the tests’ token', 'test-operator-token-0123456789abcdef'],
  ];
  it.each(generated)('accepts %s', (_name, adminToken) => {
    expect(resolveConfig({ adminToken }).adminToken).toBe(adminToken);
  });

  const weak = [
    ['16 characters, the old minimum', 'abcdefgh12345678'],
    ['31 hex digits (124 bits)', '0123456789abcdef0123456789abcde'],
    ['21 base64url characters', 'Zk3q_Xr8Lm2pQ7sV9wB4t'],
    ['a long run of one character', 'a'.repeat(64)],
    ['few distinct characters', 'abababcabcabcbabcbacbabcabcabcbacbabcabcaacb'],
    ['a repeated word', 'Password1!Password1!Password1!Password1!'],
    ['lower-case words', 'correcthorsebatterystaple'],
    ['a token with a space', 'Zk3q_Xr8Lm2pQ7sV9wB4tY Zk3q_Xr8Lm2pQ7sV9wB4tY'],
    ['a token with non-ASCII letters', 'Zk3q_Xr8Lm2pQ7sV9wB4tYé'],
  ];
  it.each(weak)('refuses %s at start, saying how to make a strong one', (_name, adminToken) => {
    expect(() => resolveConfig({ adminToken })).toThrow(SvcConfigError);
    expect(() => resolveConfig({ adminToken })).toThrow(
      /SVC_ADMIN_TOKEN.*128 bits.*openssl rand -base64 32/s,
    );
  });

  it('generates a development token into the data folder that passes', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-admin-token-'));
    try {
      const { adminToken } = devAdminToken({ SVC_DATA_DIR: dataDir });
      expect(adminToken).toBeDefined();
      expect(adminTokenIssue(adminToken ?? '')).toBeUndefined();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
