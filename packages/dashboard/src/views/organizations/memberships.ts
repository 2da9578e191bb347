import { svcMembershipSchema, type SvcMembership } from '@svc/contract';
import { apiSend } from '../../api/client.js';

/** PATCH /memberships/{id} (`role`, `active`); the answer is the membership as it is now. */
export function patchMembership(membership: SvcMembership, body: unknown): Promise<SvcMembership> {
  return apiSend(
    'PATCH',
    'auth',
    `/memberships/${encodeURIComponent(membership.id)}`,
    body,
    svcMembershipSchema,
  );
}

/** What a role field says about roles: free text, with the two the MFA policies know. */
export const ROLE_HINT =
  'Any role your applications read, such as member; owner and admin are the ones an MFA policy can require MFA for.';
