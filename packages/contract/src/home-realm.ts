import { z } from 'zod';
import { emailSchema } from './admin.js';

/** docs/reference/sign-in.md "Steps": the address whose realm is looked up. */
export const svcHomeRealmDiscoveryRequestSchema = z.object({ email: emailSchema });

export type SvcHomeRealmDiscoveryRequest = z.input<typeof svcHomeRealmDiscoveryRequestSchema>;

/**
 * docs/reference/federation.md "Home-realm discovery": `sso` names the enabled connection of an active
 * organization the address's users sign in through; `password` every other address. The answer of
 * DiscoverAsync and of the operators' preview (`POST /home-realm-discovery`).
 */
export const svcHomeRealmDiscoveryResultSchema = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('sso'),
    organizationId: z.string(),
    organizationName: z.string(),
    primaryDomain: z.string().nullable(),
    connectionId: z.string(),
  }),
  z.object({ mode: z.literal('password') }),
]);

export type SvcHomeRealmDiscoveryResult = z.output<typeof svcHomeRealmDiscoveryResultSchema>;
