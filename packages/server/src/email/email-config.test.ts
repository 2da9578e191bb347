import { describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../config/env.js';
import { resolveConfig } from '../config/resolve.js';

describe('email configuration', () => {
  it('reads SVC_EMAIL_FROM and defaults the From header', () => {
    expect(optionsFromEnv({ SVC_EMAIL_FROM: ' Acme <id@acme.test> ' }).emailFrom).toBe('Acme <id@acme.test>');
    expect(optionsFromEnv({}).emailFrom).toBeUndefined();
    expect(resolveConfig({}, 'test').emailFrom).toBe('Svc <no-reply@localhost>');
    expect(resolveConfig({ emailFrom: 'X <x@x.test>' }, 'test').emailFrom).toBe('X <x@x.test>');
  });
});
