import { describe, expect, it } from 'vitest';
import { decideAccess, type AccessSubject } from './access-policy.js';
import type { AssignmentRecord } from './repository.js';

const user = (overrides: Partial<AccessSubject & { kind: 'user' }> = {}): AccessSubject => ({
  kind: 'user',
  userId: 'usr_1',
  organizationId: 'org_1',
  role: 'member',
  groupIds: new Set(['fgr_1']),
  isOperator: false,
  ...overrides,
});

let n = 0;
const assignment = (overrides: Partial<AssignmentRecord>): AssignmentRecord => ({
  id: `apa_${(n += 1)}`,
  clientId: 'app',
  principalType: 'user',
  principalId: 'usr_1',
  organizationId: null,
  roleKey: null,
  effect: 'allow',
  createdAt: 0,
  ...overrides,
});

describe('decideAccess', () => {
  it('disabled lets nobody in, even an allowed operator', () => {
    const check = decideAccess('disabled', [assignment({})], user({ isOperator: true }));
    expect(check).toMatchObject({ allowed: false, decision: 'application_disabled' });
  });

  it('all_organizations lets everyone in unless a deny names them', () => {
    expect(decideAccess('all_organizations', [], user())).toMatchObject({ allowed: true });
    const deny = assignment({
      principalType: 'organization',
      principalId: 'org_1',
      organizationId: 'org_1',
      effect: 'deny',
    });
    const denied = decideAccess('all_organizations', [deny], user());
    expect(denied).toMatchObject({ allowed: false, decision: 'denied_by_assignment' });
    expect(denied.reasons[0]?.assignmentId).toBe(deny.id);
    // The same user signing in within another organization is not named by that deny.
    expect(decideAccess('all_organizations', [deny], user({ organizationId: 'org_2' })).allowed).toBe(true);
  });

  it('an explicit deny wins over a matching allow', () => {
    const allow = assignment({ principalType: 'user' });
    const deny = assignment({ principalType: 'group', principalId: 'fgr_1', effect: 'deny' });
    expect(decideAccess('selected_users_groups_roles', [allow, deny], user())).toMatchObject({
      allowed: false,
      decision: 'denied_by_assignment',
    });
  });

  it('selected_organizations counts organization allows only, and names an allow of another type', () => {
    const byOrg = assignment({
      principalType: 'organization',
      principalId: 'org_1',
      organizationId: 'org_1',
    });
    expect(decideAccess('selected_organizations', [byOrg], user())).toMatchObject({
      allowed: true,
      decision: 'allowed_by_assignment',
    });
    expect(decideAccess('selected_organizations', [byOrg], user({ organizationId: null })).allowed).toBe(
      false,
    );
    const byUser = assignment({ principalType: 'user' });
    const check = decideAccess('selected_organizations', [byUser], user());
    expect(check).toMatchObject({ allowed: false, decision: 'not_assigned' });
    expect(check.reasons.map((reason) => reason.code)).toEqual(['not_assigned', 'assignment_not_counted']);
  });

  it('selected_users_groups_roles counts users, groups and roles of the sign-in organization', () => {
    const role = assignment({
      principalType: 'role',
      principalId: null,
      organizationId: 'org_1',
      roleKey: 'admin',
    });
    expect(decideAccess('selected_users_groups_roles', [role], user()).allowed).toBe(false);
    expect(decideAccess('selected_users_groups_roles', [role], user({ role: 'admin' })).allowed).toBe(true);
    expect(
      decideAccess('selected_users_groups_roles', [role], user({ role: 'admin', organizationId: 'org_2' }))
        .allowed,
    ).toBe(false);
    const group = assignment({ principalType: 'group', principalId: 'fgr_1' });
    expect(decideAccess('selected_users_groups_roles', [group], user()).allowed).toBe(true);
    expect(decideAccess('selected_users_groups_roles', [group], user({ groupIds: new Set() })).allowed).toBe(
      false,
    );
  });

  it('internal_only lets operators in only', () => {
    expect(decideAccess('internal_only', [], user())).toMatchObject({
      allowed: false,
      decision: 'not_internal',
    });
    expect(decideAccess('internal_only', [], user({ isOperator: true })).allowed).toBe(true);
  });

  it('service accounts and agents match their own assignments only', () => {
    const sa = assignment({ principalType: 'service_account', principalId: 'fsa_1' });
    expect(
      decideAccess('selected_users_groups_roles', [sa], { kind: 'service_account', id: 'fsa_1' }).allowed,
    ).toBe(true);
    expect(decideAccess('selected_users_groups_roles', [sa], { kind: 'agent', id: 'fsa_1' }).allowed).toBe(
      false,
    );
  });
});
