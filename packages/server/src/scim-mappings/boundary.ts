import { FGA_MAX_DEPTH, type ScimMappingBoundaryStatus } from '@svc/contract';
import { SvcGrantBoundaryError, type GrantBoundaryErrorCode } from '../scim/errors.js';
import type { MappingResourceTree } from './deps.js';

/**
 * Where a rule's resource stands against its connection's grant boundary (docs/reference/scim.md "Mapping
 * rules"): `missing` without a boundary, `not_found` when the boundary names no resource, then the resource's
 * ancestor chain: longer than the tree allows (a cycle never ends, so it is cut there too) is
 * `hierarchy_invalid`; a chain that passes through the boundary is `configured`; otherwise, or when the
 * resource is gone, `outside_boundary`.
 */
export async function boundaryStatus(
  boundaryId: string | null,
  resourceId: string,
  tree: MappingResourceTree,
): Promise<ScimMappingBoundaryStatus> {
  if (boundaryId === null) return 'missing';
  if ((await tree.ancestorChain(boundaryId, 1)).length === 0) return 'not_found';
  const chain = await tree.ancestorChain(resourceId, FGA_MAX_DEPTH + 1);
  if (chain.length > FGA_MAX_DEPTH) return 'hierarchy_invalid';
  return chain.includes(boundaryId) ? 'configured' : 'outside_boundary';
}

const ERRORS: Record<Exclude<ScimMappingBoundaryStatus, 'configured'>, [GrantBoundaryErrorCode, string]> = {
  missing: [
    'grant_boundary_required',
    'An enabled mapping rule needs a grant boundary on its SCIM connection: set grantBoundaryResourceId first.',
  ],
  not_found: ['grant_boundary_not_found', 'The grant boundary of the SCIM connection names no FGA resource.'],
  outside_boundary: [
    'resource_outside_grant_boundary',
    'The resource is neither the grant boundary nor below it.',
  ],
  hierarchy_invalid: [
    'grant_boundary_hierarchy_invalid',
    `The resource's ancestor chain has a cycle or is deeper than ${FGA_MAX_DEPTH} levels.`,
  ],
};

/** Refuses a rule that cannot grant inside the boundary: SvcGrantBoundaryError, 400 with its code. */
export function requireInsideBoundary(status: ScimMappingBoundaryStatus): void {
  if (status === 'configured') return;
  const [code, message] = ERRORS[status];
  throw new SvcGrantBoundaryError(code, message);
}
