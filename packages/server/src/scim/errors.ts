import { SvcError } from '../kernel/errors.js';

/** RFC 7644 §3.12 `scimType` values Svc answers with. */
export type ScimType =
  | 'invalidFilter'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'invalidValue'
  | 'noTarget'
  | 'uniqueness'
  | 'mutability'
  | 'tooMany';

/**
 * An error of the SCIM service provider, answered with the SCIM error schema (RFC 7644 §3.12):
 * `{schemas: [Error], status: "<status>", scimType?, detail}`. The detail names what was wrong, never a
 * token or another tenant's data.
 */
export class ScimError extends SvcError {
  readonly scimType: ScimType | null;

  constructor(status: number, detail: string, scimType?: ScimType) {
    super(scimType ?? 'scim_error', detail, { status, expose: true });
    this.scimType = scimType ?? null;
  }
}

/** 404: no such resource in the connection of the bearer token. */
export function scimNotFound(resourceType: 'User' | 'Group', id: string): ScimError {
  return new ScimError(404, `${resourceType} '${id}' was not found.`);
}

/**
 * The SCIM grant boundary error codes (docs/reference/scim.md "Mapping rules"): a rule of the grant boundary
 * was broken, raised in-process and answered 400 with the stable `error` code.
 */
export type GrantBoundaryErrorCode =
  | 'grant_boundary_required'
  | 'grant_boundary_not_found'
  | 'grant_boundary_invalid'
  | 'resource_outside_grant_boundary'
  | 'grant_boundary_hierarchy_invalid';

/** `SvcGrantBoundaryError` (`code`, docs/reference/errors.md): a SCIM grant boundary rule violation, 400. */
export class SvcGrantBoundaryError extends SvcError {
  declare readonly code: GrantBoundaryErrorCode;

  constructor(code: GrantBoundaryErrorCode, message: string) {
    super(code, message, { status: 400, expose: true });
  }
}
