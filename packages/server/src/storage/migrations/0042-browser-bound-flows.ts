import type { Kysely } from 'kysely';

/**
 * Flows bound to the browser that started them (docs/decisions/federation-saml-app-entry-no-issuer-session.md,
 * docs/reference/calendar.md "Bound to the browser and its user"):
 *
 * - `auth_requests.sessionless`: 1 for a request an app started through its SAML entry point, whose
 *   sign-in neither starts, replaces nor ends the issuer session of the browser it continues in.
 * - `calendar_consent_states.browser_binding`: SHA-256 of the id of the browser that opened the consent's
 *   link; its callback is accepted only from that browser.
 *
 * Nullable columns: nodes of the previous release keep reading and writing the tables during a rolling
 * upgrade (a request they store is an ordinary one; a consent they store has no binding, so its callback
 * on an upgraded node is refused and the user starts again).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_requests').addColumn('sessionless', 'integer').execute();
  await db.schema.alterTable('calendar_consent_states').addColumn('browser_binding', 'text').execute();
}
