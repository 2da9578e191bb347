import type { Kysely } from 'kysely';

/**
 * SAML SSO connections (docs/reference/federation.md "SAML connections"), the AuthnRequests Svc
 * sent and waits to see answered, and the assertion ids already used (replay). Booleans 0/1, times
 * epoch-ms `bigint`, lists JSON text, like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('primary_domain', 'text')
    .addColumn('auto_provision_users', 'integer', (c) => c.notNull())
    .addColumn('auto_link_by_email', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    // What the IdP is configured with; fixed when the draft is made, so that a later PublicOrigin
    // change cannot silently break a working IdP configuration.
    .addColumn('sp_entity_id', 'text', (c) => c.notNull())
    .addColumn('acs_url', 'text', (c) => c.notNull())
    // From the imported metadata; null until then.
    .addColumn('idp_entity_id', 'text')
    .addColumn('idp_sso_url', 'text')
    // PEM certificates, one or two (a key rollover).
    .addColumn('idp_signing_certificates_json', 'text', (c) => c.notNull())
    .addColumn('metadata_imported_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // An organization's list, newest first (keyset on created_at, id).
  await db.schema
    .createIndex('sso_connections_organization_idx')
    .on('sso_connections')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  // An AuthnRequest between the redirect to the IdP and its answer: found by the SHA-256 of its ID (the
  // answer's InResponseTo), taken once.
  await db.schema
    .createTable('saml_authn_requests')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) =>
      c.notNull().references('sso_connections.id').onDelete('cascade'),
    )
    .addColumn('relay_state_hash', 'text', (c) => c.notNull())
    // What the sign-in continues with once the answer is accepted (JSON; opaque to the SAML code).
    .addColumn('continuation_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('saml_authn_requests_expires_idx')
    .on('saml_authn_requests')
    .column('expires_at')
    .execute();

  // The assertions already accepted, per connection, until they could no longer be accepted anyway.
  await db.schema
    .createTable('saml_used_assertions')
    .addColumn('connection_id', 'text', (c) =>
      c.notNull().references('sso_connections.id').onDelete('cascade'),
    )
    .addColumn('assertion_id_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('saml_used_assertions_pk', ['connection_id', 'assertion_id_hash'])
    .execute();
  await db.schema
    .createIndex('saml_used_assertions_expires_idx')
    .on('saml_used_assertions')
    .column('expires_at')
    .execute();
}
