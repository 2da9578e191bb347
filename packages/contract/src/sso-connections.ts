import { z } from 'zod';
import { domainSchema } from './admin.js';
import { organizationRefSchema } from './connection-lists.js';
import { optionalText, recordIdSchema, text } from './fields.js';

/**
 * SAML SSO connections (docs/reference/federation.md,
 * docs/reference/operator-api.md): the operator bodies of
 * `/organizations/{organizationId}/sso-connections` and `/sso-connections/{id}`, and the record their
 * answers carry, camelCase. That the metadata is usable IdP metadata is the server's check, after these.
 */

/** The longest IdP metadata document accepted, in characters (Entra's and Okta's are a few kilobytes). */
export const SSO_METADATA_MAX_LENGTH = 200_000;

/** A flag docs/reference/federation.md gives as a bool; omitted = false, the cautious value of both. */
const flagSchema = z
  .boolean()
  .nullish()
  .transform((value) => value ?? false);

/**
 * POST /organizations/{organizationId}/sso-connections (CreateSsoConnectionDraftAsync): a disabled draft
 * waiting for the IdP's metadata. `organizationId` comes from the path over HTTP.
 */
export const createSsoConnectionBodySchema = z.object({
  displayName: text(1, 200),
  /** The email domain that home realm discovery sends to this connection. */
  primaryDomain: optionalText(domainSchema),
  /** docs/reference/federation.md: create users on first SSO login. */
  autoProvisionUsers: flagSchema,
  /** docs/reference/federation.md: existing members must sign in through this connection during home realm discovery. */
  autoLinkByEmail: flagSchema,
});
export type CreateSsoConnectionBody = z.input<typeof createSsoConnectionBodySchema>;

/** The in-process request: the organization's id with the body's fields. */
export const createSsoConnectionRequestSchema = createSsoConnectionBodySchema.extend({
  organizationId: recordIdSchema,
});
export type CreateSsoConnectionRequest = z.input<typeof createSsoConnectionRequestSchema>;
export type CreateSsoConnectionInput = z.output<typeof createSsoConnectionRequestSchema>;

/**
 * POST /sso-connections/{id}/metadata (ImportSsoMetadataAsync): the IdP's raw SAML metadata. The import
 * enables the connection unless `enableConnection` is false (docs/reference/federation.md: "enabled by the two-argument form;
 * the overload with an explicit enableConnection flag chooses").
 */
const metadataXmlSchema = z
  .string()
  .trim()
  .min(1, { message: 'must hold the SAML metadata XML of the identity provider' })
  .max(SSO_METADATA_MAX_LENGTH, { message: `must be at most ${SSO_METADATA_MAX_LENGTH} characters` });

export const importSsoMetadataBodySchema = z.object({
  metadataXml: metadataXmlSchema,
  enableConnection: z.boolean().optional(),
});
export type ImportSsoMetadataBody = z.input<typeof importSsoMetadataBodySchema>;
export type ImportSsoMetadataInput = z.output<typeof importSsoMetadataBodySchema>;

/** The longest metadata URL the setup portal takes. */
export const SSO_METADATA_URL_MAX_LENGTH = 2048;

/** The https URL of an IdP's metadata, which Svc fetches; that Svc may reach it is the server's check. */
const metadataUrlSchema = z
  .string()
  .trim()
  .min(1, { message: 'must hold the https URL of the identity provider metadata' })
  .max(SSO_METADATA_URL_MAX_LENGTH, {
    message: `must be at most ${SSO_METADATA_URL_MAX_LENGTH} characters`,
  });

/**
 * POST /sso-connections/{id}/metadata-url: the operators' import of the metadata Svc fetches from the
 * IdP's URL, enabling the connection unless `enableConnection` is false, as an import of the XML does.
 */
export const importSsoMetadataUrlBodySchema = z.object({
  metadataUrl: metadataUrlSchema,
  enableConnection: z.boolean().optional(),
});
export type ImportSsoMetadataUrlBody = z.input<typeof importSsoMetadataUrlBodySchema>;
export type ImportSsoMetadataUrlInput = z.output<typeof importSsoMetadataUrlBodySchema>;

/** The metadata the setup portal imports: given, or to be fetched from a URL. */
type PortalMetadataSource =
  | { readonly metadataXml: string; readonly enableConnection?: boolean | undefined }
  | { readonly metadataUrl: string; readonly enableConnection?: boolean | undefined };

/**
 * The setup portal's POST /sso-connections/{id}/metadata: the metadata XML, or the https URL Svc fetches
 * it from (exactly one of them; the server checks the URL). Operators import either through a route
 * of its own (`/metadata`, `/metadata-url`).
 */
export const importSsoPortalMetadataBodySchema = z
  .object({
    metadataXml: metadataXmlSchema.optional(),
    metadataUrl: metadataUrlSchema.optional(),
    enableConnection: z.boolean().optional(),
  })
  .transform(({ metadataXml, metadataUrl, enableConnection }, context): PortalMetadataSource => {
    if (metadataUrl !== undefined && metadataXml === undefined) return { metadataUrl, enableConnection };
    if (metadataXml !== undefined && metadataUrl === undefined) return { metadataXml, enableConnection };
    context.addIssue({
      code: 'custom',
      path: [metadataUrl === undefined ? 'metadataXml' : 'metadataUrl'],
      message:
        metadataUrl === undefined
          ? 'required: give metadataXml or metadataUrl'
          : 'give metadataXml or metadataUrl, not both',
    });
    return z.NEVER;
  });
export type ImportSsoPortalMetadataBody = z.input<typeof importSsoPortalMetadataBodySchema>;
export type ImportSsoPortalMetadataInput = z.output<typeof importSsoPortalMetadataBodySchema>;

/**
 * The SAML attribute names Svc reads each field of a user from (docs/reference/federation.md "Bindings"),
 * in order of preference, compared without regard to case: the names Microsoft Entra ID (the `…/claims/…`
 * URIs), Okta and Google Workspace (whatever the admin typed; these are the names their guides use) send
 * by default, the LDAP / eduPerson OIDs, and ADFS's. Fixed: a connection has no mapping of its own, and
 * the console shows these.
 */
export const SAML_ATTRIBUTE_NAMES = {
  email: [
    'email',
    'emailaddress',
    'mail',
    'user.email',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    'http://schemas.xmlsoap.org/claims/EmailAddress',
    'urn:oid:0.9.2342.19200300.100.1.3',
  ],
  firstName: [
    'firstname',
    'first_name',
    'givenname',
    'given_name',
    'user.firstname',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
    'urn:oid:2.5.4.42',
  ],
  lastName: [
    'lastname',
    'last_name',
    'surname',
    'sn',
    'family_name',
    'user.lastname',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
    'urn:oid:2.5.4.4',
  ],
  displayName: [
    'displayname',
    'display_name',
    'http://schemas.microsoft.com/identity/claims/displayname',
    'urn:oid:2.16.840.1.113730.3.1.241',
    'cn',
    'urn:oid:2.5.4.3',
  ],
} as const satisfies Record<string, readonly string[]>;

/** The `{id}` of an SSO connection route. */
export const ssoConnectionPathSchema = z.object({ id: recordIdSchema });

/** The `{organizationId}` of the organization's SSO connection routes. */
export const ssoOrganizationPathSchema = z.object({ organizationId: recordIdSchema });

/**
 * The `{connectionId}` of the public SAML URLs (`/saml/metadata/{connectionId}`, `/saml/acs/{connectionId}`):
 * any string, since one that names no connection, malformed or not, is their 404.
 */
export const samlConnectionPathSchema = z.object({ connectionId: z.string() });

// ---- Records --------------------------------------------------------------------------------------

/** One of the IdP's signing certificates, as operators check it (never needed to configure anything). */
export const svcSsoCertificateSchema = z.object({
  subject: z.string(),
  notBefore: z.iso.datetime(),
  notAfter: z.iso.datetime(),
  /** SHA-256 of the DER certificate, upper-case hex pairs joined by colons (as IdP consoles show it). */
  fingerprintSha256: z.string(),
});
export type SvcSsoCertificate = z.output<typeof svcSsoCertificateSchema>;

/**
 * An SSO connection as operators read it: the settings, what to configure at the IdP (`spEntityId`,
 * `acsUrl`; the SP metadata is at the entity id's URL), and what the imported metadata said (null until
 * it is imported).
 */
export const svcSsoConnectionSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  displayName: z.string(),
  primaryDomain: z.string().nullable(),
  autoProvisionUsers: z.boolean(),
  autoLinkByEmail: z.boolean(),
  enabled: z.boolean(),
  spEntityId: z.string(),
  acsUrl: z.string(),
  idpEntityId: z.string().nullable(),
  idpSsoUrl: z.string().nullable(),
  /** One, or two while the IdP rolls its key over: a response signed with either is accepted. */
  idpCertificates: z.array(svcSsoCertificateSchema),
  metadataImportedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type SvcSsoConnection = z.output<typeof svcSsoConnectionSchema>;

/** An entry of the console-wide `GET /sso-connections`: the connection as above and its organization. */
export const svcSsoConnectionListItemSchema = svcSsoConnectionSchema.extend({
  organization: organizationRefSchema,
});
export type SvcSsoConnectionListItem = z.output<typeof svcSsoConnectionListItemSchema>;
