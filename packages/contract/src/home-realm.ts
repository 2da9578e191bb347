import { z } from 'zod';
import { emailSchema } from './admin.js';

/** docs/reference/sign-in.md "Steps": the address whose realm is looked up. */
export const svcHomeRealmDiscoveryRequestSchema = z.object({ email: emailSchema });

export type SvcHomeRealmDiscoveryRequest = z.input<typeof svcHomeRealmDiscoveryRequestSchema>;

/**
 * docs/reference/sign-in.md "Steps": `sso` names the enabled connection of an active organization
 * the address's users sign in through; `password` every other address.
 */
export type SvcHomeRealmDiscoveryResult =
  | {
      readonly mode: 'sso';
      readonly organizationId: string;
      readonly organizationName: string;
      readonly primaryDomain: string | null;
      readonly connectionId: string;
    }
  | { readonly mode: 'password' };
