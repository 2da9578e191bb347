import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * `npm start` is for a newcomer on their own machine: outside production, when no SVC_ADMIN_TOKEN is
 * set, an operator token is generated once into the data folder (mode 0600) so that the operator API
 * can be tried at once. Production never gets an implicit token.
 */
export function devAdminToken(env: NodeJS.ProcessEnv): { adminToken?: string } {
  if (env.NODE_ENV === 'production' || (env.SVC_ADMIN_TOKEN ?? '') !== '') return {};
  const dataDir = resolve(env.SVC_DATA_DIR ?? './data');
  const path = join(dataDir, 'admin.token');
  try {
    return { adminToken: readFileSync(path, 'utf8').trim() };
  } catch {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const token = randomBytes(24).toString('base64url');
    writeFileSync(path, `${token}\n`, { mode: 0o600 });
    return { adminToken: token };
  }
}
