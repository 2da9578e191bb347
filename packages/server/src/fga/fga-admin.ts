import type { FgaAccessCheck, FgaDecision } from './access-check.js';
import { testAccess, type AccessTestInput } from './access-test.js';
import { FgaDefinitions } from './definitions.js';
import type { FgaDeps } from './deps.js';
import { FgaGrants } from './grants.js';
import { FgaResources } from './resources.js';
import { FgaSubjects } from './subjects.js';

/** The FGA model's operations: what `/svc/admin/fga/api` and the in-process API call. */
export interface FgaAdmin {
  readonly definitions: FgaDefinitions;
  readonly resources: FgaResources;
  readonly subjects: FgaSubjects;
  readonly grants: FgaGrants;
  readonly check: FgaAccessCheck;
  testAccess(input: AccessTestInput): Promise<FgaDecision>;
}

export function createFgaAdmin(deps: FgaDeps, check: FgaAccessCheck): FgaAdmin {
  return {
    definitions: new FgaDefinitions(deps),
    resources: new FgaResources(deps),
    subjects: new FgaSubjects(deps),
    grants: new FgaGrants(deps),
    check,
    testAccess: (input) => testAccess({ reads: deps.repository, check }, input),
  };
}
