import { randomBytes } from 'node:crypto';
import type { DemoSeed } from '../app/seed-demo.js';
import { s256Challenge } from '../oauth/pkce.js';
import type { SvcConfig } from '../config/resolve.js';
import { SvcUnavailableError } from '../kernel/errors.js';

/** The database without credentials, for messages. */
export function describeDatabase(config: SvcConfig): string {
  if (config.database.kind === 'sqlite') return `SQLite ${config.database.filename}`;
  const url = new URL(config.database.connectionString);
  return `PostgreSQL ${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

export function printDemo(demo: DemoSeed): void {
  console.log(demo.created ? '\nDemo data seeded:' : '\nDemo data (already seeded):');
  console.log(
    `  organization   ${demo.organization.name} (${demo.organization.slug}${demo.organization.id === undefined ? '' : `, id ${demo.organization.id}`})`,
  );
  console.log(
    `  user           ${demo.user.email}${demo.user.password === undefined ? ' (password shown when it was first seeded)' : `  password: ${demo.user.password}`}`,
  );
  console.log(
    `  web client     ${demo.clients.web.clientId} (first-party, public, PKCE) redirect ${demo.clients.web.redirectUris.join(' ')}`,
  );
  console.log(
    `  partner client ${demo.clients.thirdParty.clientId} (third-party, confidential${demo.clients.thirdParty.clientSecret === undefined ? '' : `, secret: ${demo.clients.thirdParty.clientSecret}`})`,
  );
  console.log(`  device client  ${demo.clients.device.clientId} (device authorization allowed)`);
}

/**
 * A ready sign-in for the demo web client: an /authorize link with a fresh PKCE pair, and the /token
 * call that redeems the code the browser comes back with.
 */
export function printTryIt(config: SvcConfig, demo: DemoSeed): void {
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = demo.clients.web.redirectUris[0] ?? '';
  const authorize = new URL(`${config.issuer}/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: demo.clients.web.clientId,
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    state: 'demo',
    code_challenge: s256Challenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  console.log(
    '\nTry it: open this link, sign in as the demo user, and copy `code` from the address you land on:',
  );
  console.log(`  ${authorize.toString()}`);
  console.log('then redeem it:');
  console.log(
    `  curl -s ${config.issuer}/token -d grant_type=authorization_code -d client_id=${demo.clients.web.clientId} ` +
      `-d redirect_uri=${encodeURIComponent(redirectUri)} -d code_verifier=${verifier} -d code=<code>`,
  );
}

/** A failed command's error in words an operator can act on. */
export function cliMessage(error: unknown): string {
  if (error instanceof SvcUnavailableError) {
    return `the database is not answering (${error.detail}). Check SVC_DATABASE_URL and that the database is running.`;
  }
  return error instanceof Error ? error.message : String(error);
}
