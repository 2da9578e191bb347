import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { machineTestFolder } from '../machine-test-folder.js';

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

function generate(staging: string): void {
  for (const name of NAMES) {
    execFileSync('openssl', [
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
    ]);
  }
}

let loaded: Promise<SamlTestKeys> | undefined;

/**
 * Three RSA key pairs made with the `openssl` CLI once (kept in a temp folder for later runs and the
 * other workers), read once per worker.
 */
export function samlTestKeys(): Promise<SamlTestKeys> {
  loaded ??= (async () => {
    // RSA key generation is the slow part.
    const folder = machineTestFolder('svc-saml-test-keys-v1', 'forger.crt', generate);
    const pair = (name: (typeof NAMES)[number]): SamlTestKeyPair => ({
      key: readFileSync(join(folder, `${name}.key`), 'utf8'),
      certificate: readFileSync(join(folder, `${name}.crt`), 'utf8'),
    });
    return { current: pair('current'), next: pair('next'), forger: pair('forger') };
  })();
  return loaded;
}
