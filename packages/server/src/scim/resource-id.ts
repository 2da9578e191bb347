/** No id Svc issues has a control character, and PostgreSQL refuses a NUL in a comparison. */
const CONTROL_CHARS = /\p{Cc}/u;

/** The longest id a SCIM resource of Svc can have (its record ids are far shorter). */
const MAX_RESOURCE_ID = 200;

/**
 * Whether `id` could name a User or Group Svc issued. Any other answers 404 (or, as a group member,
 * 400) without a query.
 */
export function couldBeResourceId(id: string): boolean {
  return id.length <= MAX_RESOURCE_ID && !CONTROL_CHARS.test(id);
}
