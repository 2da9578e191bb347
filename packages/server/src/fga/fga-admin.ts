import type { FgaAccessCheck, FgaDecision } from './access-check.js';
import { testAccess, type AccessTestInput } from './access-test.js';
import { FgaDefinitions } from './definitions.js';
import type { FgaDeps } from './deps.js';
import { FgaGrants } from './grants.js';
import { FgaResourceMoves } from './resource-moves.js';
import { FgaResources } from './resources.js';
import { FgaSubjects } from './subjects.js';

/** The FGA model's operations: what `/svc/admin/fga/api` and the in-process API call. */
export interface FgaAdmin {
  readonly definitions: FgaDefinitions;
  readonly resources: FgaResources;
  readonly subjects: FgaSubjects;
  readonly grants: FgaGrants;
  /** Who follows resource moves (the SCIM mapping rules, which revoke what leaves a grant boundary). */
  readonly resourceMoves: FgaResourceMoves;
  readonly check: FgaAccessCheck;
  testAccess(input: AccessTestInput): Promise<FgaDecision>;
}

export function createFgaAdmin(deps: FgaDeps, check: FgaAccessCheck): FgaAdmin {
  const resourceMoves = new FgaResourceMoves();
  return {
    definitions: new FgaDefinitions(deps),
    resources: new FgaResources(deps, resourceMoves),
    resourceMoves,
    subjects: new FgaSubjects(deps),
    grants: new FgaGrants(deps),
    check,
    testAccess: (input) => testAccess({ reads: deps.repository, check }, input),
  };
}
