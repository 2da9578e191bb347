#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { cliMessage } from './output.js';
import { migrateCommand } from './migrate.js';
import { keysRotateCommand } from './keys-rotate.js';
import { operatorAddCommand } from './operator-add.js';
import { seedDemoCommand } from './seed-demo.js';
import { serveCommand } from './serve.js';
import { SVC_VERSION } from '../version.js';

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
  .action(serveCommand);
program.command('migrate').description('apply pending database migrations and exit').action(migrateCommand);
program
  .command('seed-demo')
  .description('seed the demo organization, user and clients and print them')
  .action(seedDemoCommand);
program
  .command('operator')
  .description('manage operators')
  .command('add')
  .argument('<email>', 'email of the user to mark as operator (created without a password if missing)')
  .description('mark a user as operator of the bundled dashboards')
  .action(operatorAddCommand);
program
  .command('keys')
  .description('manage signing keys')
  .command('rotate')
  .description('rotate the signing key now; the old key stays published for the grace window')
  .action(keysRotateCommand);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  console.error(`svc: ${cliMessage(error)}`);
  process.exit(1);
}
