import type { DemoSeed } from '../app/seed-demo.js';
import type { SvcConfig } from '../config/resolve.js';

/** The database without credentials, for messages. */
export function describeDatabase(config: SvcConfig): string {
  if (config.database.kind === 'sqlite') return `SQLite ${config.database.filename}`;
  const url = new URL(config.database.connectionString);
  return `PostgreSQL ${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

export function printDemo(demo: DemoSeed): void {
  console.log(demo.created ? '\nDemo data seeded:' : '\nDemo data (already seeded):');
  console.log(
    `  organization   ${demo.organization.name} (${demo.organization.slug}, id ${demo.organization.id})`,
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
