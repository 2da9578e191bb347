import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** An identity provider's signing key and its self-signed certificate, PEM. */
export interface SamlTestKeyPair {
  readonly key: string;
  readonly certificate: string;
}

/** The keys SAML tests sign with: the IdP's current and next (a rollover), and a stranger's. */
export interface SamlTestKeys {
  readonly current: SamlTestKeyPair;
  readonly next: SamlTestKeyPair;
  readonly forger: SamlTestKeyPair;
}

const NAMES = ['current', 'next', 'forger'] as const;

/** Shared by every worker and run on this machine: RSA key generation is the slow part. */
const CACHE = join(tmpdir(), 'svc-saml-test-keys-v1');

async function generate(): Promise<void> {
  const staging = mkdtempSync(join(tmpdir(), 'svc-saml-test-keys-'));
  await Promise.all(
    NAMES.map((name) =>
      promisify(execFile)('openssl', [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-days',
        '3650',
        '-subj',
        `/CN=svc-test-idp-${name}`,
        '-keyout',
        join(staging, `${name}.key`),
        '-out',
        join(staging, `${name}.crt`),
      ]),
    ),
  );
  try {
    renameSync(staging, CACHE);
  } catch {
    // Another worker got there first: its keys serve as well.
    rmSync(staging, { recursive: true, force: true });
  }
}

let loaded: Promise<SamlTestKeys> | undefined;

/**
 * Three RSA key pairs made with the `openssl` CLI once (kept in a temp folder for later runs and the
 * other workers), read once per worker.
 */
export function samlTestKeys(): Promise<SamlTestKeys> {
  loaded ??= (async () => {
    if (!existsSync(join(CACHE, 'forger.crt'))) await generate();
    const pair = (name: (typeof NAMES)[number]): SamlTestKeyPair => ({
      key: readFileSync(join(CACHE, `${name}.key`), 'utf8'),
      certificate: readFileSync(join(CACHE, `${name}.crt`), 'utf8'),
    });
    return { current: pair('current'), next: pair('next'), forger: pair('forger') };
  })();
  return loaded;
}
