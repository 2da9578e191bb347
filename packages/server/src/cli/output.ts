import { randomBytes } from 'node:crypto';
import type { DemoSeed } from '../app/seed-demo.js';
import { s256Challenge } from '../oauth/pkce.js';
import type { SvcConfig } from '../config/resolve.js';
import { SvcUnavailableError } from '../kernel/errors.js';

/**
 * What `svc serve` prints once it listens: where, the database, the well-known addresses, how to reach
 * the operator API, and the demo when it was seeded. `workers` is said when there are several.
 */
export function printServeBanner(
  config: SvcConfig,
  address: string,
  demo: DemoSeed | undefined,
  workers: number,
): void {
  const processes = workers > 1 ? ` with ${workers} workers` : '';
  console.log(`Svc is listening on ${address}${processes} (database: ${describeDatabase(config)})`);
  console.log(`  issuer      ${config.issuer}`);
  console.log(`  discovery   ${config.issuer}/.well-known/openid-configuration`);
  console.log(`  JWKS        ${config.issuer}/.well-known/jwks.json`);
  const registration = config.dynamicClientRegistration;
  if (registration.enabled) {
    console.log(`  registration ${config.issuer}/register  (dynamic client registration is on)`);
    if (registration.allowedScopes.length === 0) {
      console.log(
        '  Registered apps may ask for any scope: set SVC_DCR_ALLOWED_SCOPES to the scopes they may have.',
      );
    }
  }
  const documents = config.clientIdMetadataDocuments;
  if (documents.enabled) {
    const hosts = documents.allowedHosts.length === 0 ? 'any host' : documents.allowedHosts.join(', ');
    console.log(`  client metadata documents are on: client_ids may be https URLs on ${hosts}`);
    if (documents.allowLoopback) {
      console.log('  and from this machine (SVC_CIMD_ALLOW_LOOPBACK): turn it off outside development');
    }
    if (documents.allowedScopes.length === 0) {
      console.log(
        '  Apps known by their documents may ask for any scope: set SVC_CIMD_ALLOWED_SCOPES to the scopes they may have.',
      );
    }
  }
  if (config.allowInsecureLoopback) {
    console.log(
      '  provider connections may call this machine (SVC_ALLOW_INSECURE_LOOPBACK): turn it off outside development',
    );
  } else if (config.development) {
    console.log('  A provider on this machine (a local IdP) needs SVC_ALLOW_INSECURE_LOOPBACK=1.');
  }
  console.log(
    `  operator API ${config.publicOrigin}${config.adminAuthBase}/api  (Authorization: Bearer <SVC_ADMIN_TOKEN>)`,
  );
  if (config.adminToken === undefined) {
    console.log(
      '  The operator API is closed: set SVC_ADMIN_TOKEN (at least 128 bits: `openssl rand -base64 32`) to open it.',
    );
  } else if (process.env.SVC_ADMIN_TOKEN === undefined) {
    console.log(
      `  development operator token: ${config.adminToken}  (from ${config.dataDir}/admin.token; set SVC_ADMIN_TOKEN to choose your own)`,
    );
  }
  if (demo !== undefined) {
    printDemo(demo);
    printTryIt(config, demo);
  }
  console.log('\nPress Ctrl+C to stop.');
}

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
  const { code, address, port } = error as { code?: unknown; address?: unknown; port?: unknown };
  if (code === 'EADDRINUSE' && typeof address === 'string' && typeof port === 'number') {
    return `${address}:${port} is in use: stop what listens there, or choose another port (SVC_PORT or --port).`;
  }
  return error instanceof Error ? error.message : String(error);
}
