import { createSvc } from '../app/create-svc.js';
import { seedDemoFromEnv } from '../config/env.js';
import type { SvcOptions } from '../config/options.js';
import { SVC_VERSION } from '../version.js';
import { describeDatabase, printDemo, printTryIt } from './output.js';
import { devAdminToken } from './dev-admin-token.js';
import { keepServingOnStrayErrors } from './process-guards.js';

export interface ServeFlags {
  seedDemo?: boolean;
  port?: string;
  host?: string;
}

/**
 * What the flags of `svc serve` set over the SVC_* environment. `--port` and `--host` win over their
 * variables. `--seed-demo` is baked into `npm start`, so there an explicit SVC_SEED_DEMO (on or off) wins
 * over the flag: `SVC_SEED_DEMO=0 npm start` starts without the demo data.
 */
export function serveOptions(flags: ServeFlags, env: NodeJS.ProcessEnv): SvcOptions {
  return {
    ...(flags.seedDemo === true ? { seedDemo: seedDemoFromEnv(env) ?? true } : {}),
    ...(flags.port === undefined ? {} : { port: Number(flags.port) }),
    ...(flags.host === undefined ? {} : { host: flags.host }),
  };
}

/** `svc serve`: the standalone server; stops cleanly on SIGINT/SIGTERM. */
export async function serveCommand(flags: ServeFlags): Promise<void> {
  console.log(`Starting Svc ${SVC_VERSION} …`);
  const svc = await createSvc({ ...serveOptions(flags, process.env), ...devAdminToken(process.env) });
  const { config } = svc;
  keepServingOnStrayErrors(svc.app.log);
  // Before the banner: whoever reads "Press Ctrl+C" may stop the server at once.
  const stop = (signal: string) => {
    console.log(`\n${signal} received, stopping …`);
    svc.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  const address = await svc.listen();
  console.log(`Svc is listening on ${address} (database: ${describeDatabase(config)})`);
  console.log(`  issuer      ${config.issuer}`);
  console.log(`  discovery   ${config.issuer}/.well-known/openid-configuration`);
  console.log(`  JWKS        ${config.issuer}/.well-known/jwks.json`);
  console.log(
    `  operator API ${config.publicOrigin}${config.adminAuthBase}/api  (Authorization: Bearer <SVC_ADMIN_TOKEN>)`,
  );
  if (config.adminToken === undefined) {
    console.log('  The operator API is closed: set SVC_ADMIN_TOKEN (at least 16 characters) to open it.');
  } else if (process.env.SVC_ADMIN_TOKEN === undefined) {
    console.log(
      `  development operator token: ${config.adminToken}  (from ${config.dataDir}/admin.token; set SVC_ADMIN_TOKEN to choose your own)`,
    );
  }
  if (svc.demo !== undefined) {
    printDemo(svc.demo);
    printTryIt(config, svc.demo);
  }
  console.log('\nPress Ctrl+C to stop.');
}
