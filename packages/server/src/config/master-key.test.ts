import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMasterKey, parseMasterKey } from './master-key.js';
import { resolveConfig } from './resolve.js';

describe('master key', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('parses 32 bytes as hex or base64 and refuses anything else', () => {
    const hex = 'ab'.repeat(32);
    expect(parseMasterKey(hex)).toEqual(Buffer.alloc(32, 0xab));
    expect(parseMasterKey(Buffer.alloc(32, 7).toString('base64'))).toEqual(Buffer.alloc(32, 7));
    expect(() => parseMasterKey('too-short')).toThrow(/openssl rand -hex 32/);
  });

  it('generates the key once into the data folder with owner-only permissions, then reuses it', () => {
    const config = resolveConfig({ dataDir: dir, databaseUrl: `sqlite:${join(dir, 'svc.db')}` });
    const first = loadMasterKey(config);
    expect(first).toHaveLength(32);
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'secret.key'), 'utf8').trim()).toBe(first.toString('hex'));
    expect(loadMasterKey(config)).toEqual(first);
  });

  it('requires SVC_SECRET_KEY in production on PostgreSQL, where nodes must share it', () => {
    const config = resolveConfig({ dataDir: dir, databaseUrl: 'postgres://svc@db/svc' }, 'production');
    expect(() => loadMasterKey(config)).toThrow(/SVC_SECRET_KEY is required in production on PostgreSQL/);
  });
});
