import { GRANT_BOUNDARY_MAX_LENGTH, type SvcGrantBoundary } from '@svc/contract';
import { SvcGrantBoundaryError } from './errors.js';

/**
 * Where a connection's grant boundary is looked up: the FGA resource tree. A port, so that the SCIM
 * capability depends on no FGA storage; the app wires the implementation the FGA capability provides.
 */
export interface GrantBoundaryResources {
  /** Whether an FGA resource with this id exists. */
  resourceExists(resourceId: string): Promise<boolean>;
}

/**
 * A boundary id as given: at most 256 characters (docs/reference/scim.md "The grant boundary") and, like
 * every FGA resource id, without control characters (PostgreSQL cannot store a NUL); else
 * `grant_boundary_invalid`.
 */
export function checkGrantBoundaryId(resourceId: string): string {
  if (resourceId.length > GRANT_BOUNDARY_MAX_LENGTH) {
    throw new SvcGrantBoundaryError(
      'grant_boundary_invalid',
      `The grant boundary resource id must be at most ${GRANT_BOUNDARY_MAX_LENGTH} characters.`,
    );
  }
  if (/\p{Cc}/u.test(resourceId)) {
    throw new SvcGrantBoundaryError(
      'grant_boundary_invalid',
      'The grant boundary resource id must not contain control characters.',
    );
  }
  return resourceId;
}

/**
 * docs/reference/scim.md "The grant boundary": configured, missing (none set) or not_found (no such
 * resource).
 */
export async function grantBoundaryOf(
  resourceId: string | null,
  resources: GrantBoundaryResources,
): Promise<SvcGrantBoundary> {
  if (resourceId === null) return { resourceId: null, status: 'missing' };
  return { resourceId, status: (await resources.resourceExists(resourceId)) ? 'configured' : 'not_found' };
}
