import type { ScimGroupRef } from '../scim/directory-events.js';
import type { HeldGrant, WantedGrant } from './deps.js';
import type { ScimMappingRecord } from './repository.js';

/**
 * Whether a rule matches a group (docs/reference/scim.md "Mapping rules": `match: {groupDisplayName?,
 * groupExternalId?}`): each given field must match, the display name case-insensitively (SCIM compares group
 * names so), the externalId exactly.
 */
export function ruleMatches(rule: ScimMappingRecord, group: ScimGroupRef): boolean {
  if (rule.groupDisplayName === null && rule.groupExternalId === null) return false;
  if (rule.groupDisplayName !== null) {
    if (rule.groupDisplayName.toUpperCase() !== group.displayName.toUpperCase()) return false;
  }
  return rule.groupExternalId === null || rule.groupExternalId === group.externalId;
}

export function grantKey(grant: WantedGrant | HeldGrant): string {
  return `${grant.userId}\u0000${grant.roleId}\u0000${grant.resourceId}`;
}

/** A grant the rules want, with the groups that justify it. */
export interface Justified {
  readonly grant: WantedGrant;
  readonly groupIds: Set<string>;
}

/**
 * The grants the usable rules give the users, by key: one grant may be justified by several groups or
 * rules, and it stays while any of them holds.
 */
export function wantedGrants(
  rules: readonly ScimMappingRecord[],
  groupsByUser: ReadonlyMap<string, readonly ScimGroupRef[]>,
): Map<string, Justified> {
  const wanted = new Map<string, Justified>();
  for (const [userId, groups] of groupsByUser) {
    for (const group of groups) {
      for (const rule of rules) {
        if (!ruleMatches(rule, group)) continue;
        const grant = { userId, roleId: rule.roleId, resourceId: rule.resourceId };
        const key = grantKey(grant);
        const entry = wanted.get(key) ?? { grant, groupIds: new Set<string>() };
        entry.groupIds.add(group.id);
        wanted.set(key, entry);
      }
    }
  }
  return wanted;
}
