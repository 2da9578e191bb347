import type { SvcFgaSubjectType } from '@svc/contract';
import { unknownReference } from './errors.js';
import type { FgaAccessCheck, FgaDecision } from './access-check.js';
import type { FgaReads } from './repository.js';
import { resolveSubject } from './subjects.js';

export interface AccessTestInput {
  readonly subjectId: string;
  readonly subjectType?: SvcFgaSubjectType | undefined;
  readonly resourceId: string;
  readonly permissionKey: string;
}

/**
 * POST /access-test: the check an application makes, with its explanation, for an operator. Unlike
 * the check (which answers no for what does not exist), a subject, resource or permission that does
 * not exist is a 400 naming the field, so that a typo is not mistaken for a denial. It goes through
 * the same check and cache as `checkAsync`, so it shows what applications are told.
 */
export async function testAccess(
  deps: { readonly reads: FgaReads; readonly check: FgaAccessCheck },
  input: AccessTestInput,
): Promise<FgaDecision> {
  const subject = await resolveSubject(deps.reads, input.subjectId, input.subjectType);
  if (subject === undefined) throw unknownReference('subjectId', 'No subject has this id.');
  if ((await deps.reads.findResource(input.resourceId)) === undefined) {
    throw unknownReference('resourceId', 'No resource has this id.');
  }
  if ((await deps.reads.findDefinitionByKey('permission', input.permissionKey)) === undefined) {
    throw unknownReference('permissionKey', 'No permission has this key.');
  }
  return deps.check.check(
    { subject, resourceId: input.resourceId, permissionKey: input.permissionKey },
    true,
  );
}
