import { randomBytes } from 'node:crypto';
import { SvcConflictError } from '../kernel/errors.js';
import type { SvcAdminService } from './facades/svc-admin-service.js';

/** The fixed demo password outside production, so that the README and the console agree. */
export const DEMO_PASSWORD = 'svc-demo-password';

export const DEMO = {
  organization: { name: 'Demo Organization', slug: 'demo', primaryDomain: 'demo.example' },
  user: { displayName: 'Demo User', email: 'demo@demo.example' },
  clients: {
    web: {
      clientId: 'demo-web',
      name: 'Demo Web App',
      audience: 'demo-api',
      redirectUris: ['http://localhost:3000/callback'],
    },
    thirdParty: {
      clientId: 'demo-partner',
      name: 'Demo Partner App',
      audience: 'demo-api',
      redirectUris: ['http://localhost:4000/callback'],
    },
    device: {
      clientId: 'demo-device',
      name: 'Demo TV App',
      audience: 'demo-api',
      redirectUris: ['http://127.0.0.1/callback'],
    },
  },
};

export interface DemoSeed {
  /** False when the demo was seeded on an earlier start (then ids, password and secret are not known here). */
  readonly created: boolean;
  readonly organization: { readonly id?: string; readonly name: string; readonly slug: string };
  readonly user: { readonly email: string; readonly password?: string };
  readonly clients: {
    readonly web: { readonly clientId: string; readonly redirectUris: readonly string[] };
    readonly thirdParty: { readonly clientId: string; readonly clientSecret?: string };
    readonly device: { readonly clientId: string };
  };
}

/**
 * Seeds the demo once (docs/reference/configuration.md "The demo"): an organization, a user who belongs to
 * it, a first-party web client, a third-party confidential client and a device client. The organization's
 * fixed slug marks the demo as seeded, so later starts leave it untouched.
 */
export async function seedDemo(admin: SvcAdminService, options: { production: boolean }): Promise<DemoSeed> {
  const actor = { actorType: 'system' as const, actorId: 'seed-demo' };
  let organization;
  try {
    organization = await admin.createOrganizationAsync(DEMO.organization, actor);
  } catch (error) {
    if (!(error instanceof SvcConflictError)) throw error;
    return {
      created: false,
      organization: DEMO.organization,
      user: { email: DEMO.user.email },
      clients: DEMO.clients,
    };
  }
  const password = options.production ? randomBytes(12).toString('base64url') : DEMO_PASSWORD;
  const user = await admin.createUserAsync({ ...DEMO.user, password }, actor);
  await admin.createMembershipAsync(
    { organizationId: organization.id, userId: user.id, role: 'owner' },
    actor,
  );
  const web = await admin.createClientAsync({ ...DEMO.clients.web, isFirstParty: true }, actor);
  const thirdParty = await admin.createClientAsync(
    { ...DEMO.clients.thirdParty, isFirstParty: false, tokenEndpointAuthMethod: 'client_secret_basic' },
    actor,
  );
  const device = await admin.createClientAsync(
    { ...DEMO.clients.device, isFirstParty: true, allowDeviceAuthorization: true },
    actor,
  );
  return {
    created: true,
    organization,
    user: { email: DEMO.user.email, password },
    clients: {
      web,
      thirdParty:
        thirdParty.clientSecret === undefined
          ? { clientId: thirdParty.clientId }
          : { clientId: thirdParty.clientId, clientSecret: thirdParty.clientSecret },
      device,
    },
  };
}
