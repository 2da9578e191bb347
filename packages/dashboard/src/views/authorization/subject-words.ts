import type { SvcFgaSubjectType } from '@svc/contract';

export const SUBJECT_TYPE_LABELS: Readonly<Record<SvcFgaSubjectType, string>> = {
  user: 'User',
  group: 'Group',
  service_account: 'Service account',
  agent: 'Agent',
};

/** Who made a grant: an operator (through the API or in process), or the source that manages it. */
export function managedByWords(managedBy: string): string {
  if (managedBy === 'operator') return 'An operator';
  if (managedBy.startsWith('scim:')) return `SCIM connection ${managedBy.slice('scim:'.length)}`;
  return managedBy;
}
