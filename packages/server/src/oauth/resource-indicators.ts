import type { ClientRecord } from '../directory/repository.js';

/**
 * Resource indicators (RFC 8707). docs/reference/tokens-and-sessions.md "The token endpoint": a client's allowed resources are its audience plus an
 * optional allowedResources list (absolute URIs, RFC 8707); the access token's aud is the bound
 * resource. docs/reference/tokens-and-sessions.md "The token endpoint": the resource is "bound to the code and refresh-token family; cannot be introduced
 * or changed later".
 */

/** The longest resource URI accepted (the longest a client can register). */
export const MAX_RESOURCE_LENGTH = 2048;

/** RFC 8707 §2: "an absolute URI" that "MUST NOT include a fragment component". */
export function isAbsoluteUriWithoutFragment(value: string): boolean {
  if (value.length > MAX_RESOURCE_LENGTH || /[\s\p{Cc}]/u.test(value) || value.includes('#')) {
    return false;
  }
  // URL parses only absolute URIs (a scheme is required), which is exactly the rule here.
  return URL.canParse(value);
}

/** True when the client may have tokens for `resource`: its audience or one of its allowedResources. */
export function isResourceAllowed(client: ClientRecord, resource: string): boolean {
  return resource === client.audience || client.allowedResources.includes(resource);
}

/** The resource to bind, or why the request is invalid_target. */
export type ResourceCheck =
  | { readonly ok: true; readonly resource: string | null }
  | { readonly ok: false; readonly description: string };

/**
 * Checks the `resource` values of a request (empty values already removed): none binds nothing (null:
 * tokens are for the client's audience); one must be a well-formed absolute URI the client is allowed,
 * compared as an exact string; more than one is refused, because a grant binds one resource, which
 * becomes the access token's single `aud`. Every failure is RFC 8707's invalid_target.
 */
export function checkResource(resources: readonly string[], client: ClientRecord): ResourceCheck {
  const [resource, ...more] = resources;
  if (resource === undefined) return { ok: true, resource: null };
  if (more.length > 0) return { ok: false, description: 'Only one resource may be requested.' };
  if (!isAbsoluteUriWithoutFragment(resource)) {
    return { ok: false, description: 'The resource must be an absolute URI without a fragment.' };
  }
  if (!isResourceAllowed(client, resource)) {
    return { ok: false, description: 'The resource is not allowed for this client.' };
  }
  return { ok: true, resource };
}
