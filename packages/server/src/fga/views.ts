import type {
  SvcFgaAccessTestResult,
  SvcFgaGrant,
  SvcFgaGroup,
  SvcFgaGroupMember,
  SvcFgaKeyedRecord,
  SvcFgaResource,
  SvcFgaResourceDetail,
  SvcFgaRole,
  SvcFgaSubject,
} from '@svc/contract';
import { toIso } from '../kernel/clock.js';
import type {
  FgaDefinitionRecord,
  FgaGrantRecord,
  FgaGroupMemberRecord,
  FgaResourceRecord,
  FgaSubjectListing,
  FgaSubjectRecord,
} from './repository.js';
import type { FgaDecision } from './access-check.js';
import type { FgaResourceDetail } from './resources.js';

/** The records of the FGA model in their wire shapes (contract/src/fga.ts). */

export const toKeyedView = (record: FgaDefinitionRecord): SvcFgaKeyedRecord => ({
  id: record.id,
  key: record.key,
  name: record.name,
  createdAt: toIso(record.createdAt),
  updatedAt: toIso(record.updatedAt),
});

export const toRoleView = (record: FgaDefinitionRecord): SvcFgaRole => ({
  ...toKeyedView(record),
  permissionKeys: [...record.permissionKeys],
});

export const toResourceView = (record: FgaResourceRecord): SvcFgaResource => ({
  id: record.id,
  name: record.name,
  typeId: record.typeId,
  parentId: record.parentId,
  createdAt: toIso(record.createdAt),
  updatedAt: toIso(record.updatedAt),
});

export const toResourceDetailView = (record: FgaResourceDetail): SvcFgaResourceDetail => ({
  ...toResourceView(record),
  ancestorIds: [...record.ancestorIds],
});

/** A group, service account or agent; `type` is left out for groups, whose routes name them. */
export const toGroupView = (record: FgaSubjectRecord): SvcFgaGroup => ({
  id: record.id,
  name: record.name,
  organizationId: record.organizationId,
  createdAt: toIso(record.createdAt),
  updatedAt: toIso(record.updatedAt),
});

export const toSubjectRecordView = (record: FgaSubjectRecord): SvcFgaSubject & { updatedAt: string } => ({
  type: record.type,
  id: record.id,
  name: record.name,
  organizationId: record.organizationId,
  createdAt: toIso(record.createdAt),
  updatedAt: toIso(record.updatedAt),
});

export const toSubjectView = (listing: FgaSubjectListing): SvcFgaSubject => ({
  ...listing,
  createdAt: toIso(listing.createdAt),
});

export const toMemberView = (record: FgaGroupMemberRecord): SvcFgaGroupMember => ({
  ...record,
  createdAt: toIso(record.createdAt),
});

export const toGrantView = (record: FgaGrantRecord): SvcFgaGrant => ({
  id: record.id,
  subject: { ...record.subject },
  roleId: record.roleId,
  resourceId: record.resourceId,
  managedBy: record.managedBy,
  createdAt: toIso(record.createdAt),
});

export const toDecisionView = (decision: FgaDecision): SvcFgaAccessTestResult => ({
  allowed: decision.allowed,
  explanation:
    decision.explanation === null ? null : { ...decision.explanation, path: [...decision.explanation.path] },
});
