#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { cliMessage } from './output.js';
import type { ServeFlags } from './serve.js';
import { SVC_VERSION } from '../kernel/version.js';

// Each command loads its modules when it runs: `--help`, a usage error or `migrate` do not wait for the
// whole server to load (about a second of a CLI process's start).

const program = new Command()
  .name('svc')
  .description(
    'Svc identity and authorization server. Configuration comes from SVC_* environment variables (see the README).',
  )
  .version(SVC_VERSION)
  .showHelpAfterError('(run "svc --help" for usage)');

program
  .command('serve')
  .description('start the server (applies migrations, creates the first signing key)')
  .option('--seed-demo', 'seed the demo organization, user and clients if missing')
  .option('-p, --port <port>', 'listen port (SVC_PORT)')
  .option('--host <host>', 'listen address (SVC_HOST)')
  .option(
    '--workers <count>',
    'processes serving the port (SVC_WORKERS); default: one per core in production on PostgreSQL, else 1',
  )
  .action(async (flags: ServeFlags) => (await import('./serve.js')).serveCommand(flags));
program
  .command('migrate')
  .description('apply pending database migrations and exit')
  .action(async () => (await import('./migrate.js')).migrateCommand());
program
  .command('seed-demo')
  .description('seed the demo organization, user and clients and print them')
  .action(async () => (await import('./seed-demo.js')).seedDemoCommand());
program
  .command('operator')
  .description('manage operators')
  .command('add')
  .argument('<email>', 'email of the user to mark as operator (created without a password if missing)')
  .description('mark a user as operator of the bundled dashboards')
  .action(async (email: string) => (await import('./operator-add.js')).operatorAddCommand(email));
program
  .command('keys')
  .description('manage signing keys')
  .command('rotate')
  .description('rotate the signing key now; the old key stays published for the grace window')
  .action(async () => (await import('./keys-rotate.js')).keysRotateCommand());

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  console.error(`svc: ${cliMessage(error)}`);
  process.exit(1);
}
