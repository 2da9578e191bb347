import { z } from 'zod';
import { optionalText, recordIdSchema, text } from './fields.js';

/**
 * OpenID / social provider connections (docs/reference/federation.md,
 * docs/reference/operator-api.md): the operator bodies of
 * `/oidc-connections` and the record its reads answer, camelCase. These schemas check each field's
 * shape; which fields a provider type requires, refuses or fixes is the server's rule, checked after
 * them (docs/reference/federation.md "Fields each provider type requires, refuses and fixes").
 */

/** The provider type (docs/reference/federation.md "OIDC and social connections"): four built-in social providers or Custom. */
export const OIDC_PROVIDER_TYPES = ['Custom', 'Google', 'Microsoft', 'Apple', 'GitHub'] as const;
export type OidcProviderType = (typeof OIDC_PROVIDER_TYPES)[number];

/** How a provider sign-in is named (docs/reference/federation.md AuthenticationMethod): `oidc` for Custom, else the provider. */
export const OIDC_AUTHENTICATION_METHODS = ['oidc', 'google', 'microsoft', 'apple', 'github'] as const;
export type OidcAuthenticationMethod = (typeof OIDC_AUTHENTICATION_METHODS)[number];

/** How Svc authenticates to the provider's token endpoint. */
export const OIDC_CLIENT_AUTH_METHODS = ['ClientSecretPost', 'ClientSecretBasic'] as const;
export type OidcClientAuthMethod = (typeof OIDC_CLIENT_AUTH_METHODS)[number];

/** The claims a connection maps, in the order docs/reference/federation.md lists them. */
export const OIDC_MAPPED_CLAIMS = [
  'subject',
  'email',
  'emailVerified',
  'displayName',
  'firstName',
  'lastName',
  'preferredUsername',
] as const;
export type OidcMappedClaim = (typeof OIDC_MAPPED_CLAIMS)[number];

/** The longest `logoDataUrl`, in characters: a provider button's image, sent with every provider list. */
export const OIDC_LOGO_MAX_LENGTH = 32 * 1024;

/**
 * One of `values`, spelled in any case (and, with `ignoreUnderscores`, `client_secret_post` too); the
 * output is the canonical spelling, so the stored value never depends on how a caller typed it.
 */
function canonicalEnum<T extends readonly [string, ...string[]]>(values: T, ignoreUnderscores = false) {
  const key = (value: string) => (ignoreUnderscores ? value.replaceAll('_', '') : value).toLowerCase();
  const byKey = new Map<string, T[number]>(values.map((value) => [key(value), value]));
  return z.string().transform((value, ctx): T[number] => {
    const found = byKey.get(key(value.trim()));
    if (found !== undefined) return found;
    ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')}` });
    return z.NEVER;
  });
}

export const oidcProviderTypeSchema = canonicalEnum(OIDC_PROVIDER_TYPES);
export const oidcClientAuthMethodSchema = canonicalEnum(OIDC_CLIENT_AUTH_METHODS, true);

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * An absolute `https:` URL, or `http:` on a loopback host (a provider run beside Svc in development and
 * tests): client secrets and authorization codes travel to and from these URLs. No fragment and no
 * user info. `{connectionId}` and `{tenant}` placeholders parse as path or query text.
 */
function webUrlSchema(what: string) {
  return z
    .string()
    .trim()
    .min(1)
    .max(2048)
    .superRefine((value, ctx) => {
      if (/[\s\p{Cc}]/u.test(value) || !URL.canParse(value)) {
        ctx.addIssue({ code: 'custom', message: `must be an absolute URL (${what})` });
        return;
      }
      const url = new URL(value);
      const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.test(url.hostname);
      if (url.protocol !== 'https:' && !loopbackHttp) {
        ctx.addIssue({ code: 'custom', message: 'must use https: (http: only on a loopback host)' });
      }
      if (value.includes('#')) ctx.addIssue({ code: 'custom', message: 'must not contain a fragment' });
      if (url.username !== '' || url.password !== '') {
        ctx.addIssue({ code: 'custom', message: 'must not contain user info' });
      }
    });
}

/** A provider endpoint or discovery document URL. */
export const providerUrlSchema = webUrlSchema('for example https://idp.example.com/authorize');

/** A URL the provider sends the browser back to; `{connectionId}` stands for the new connection's id. */
export const callbackUriSchema = webUrlSchema('for example https://id.example.com/svc/auth/oidc/callback');

/** RFC 6749 §3.3 scope-token, as the provider defines its scopes (no `auth:*` rule: they are not Svc's). */
const upstreamScopeSchema = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, {
    message: 'must be an RFC 6749 scope token (no spaces, quotes or backslashes)',
  });

/** A claim name of the provider's identity document (ID token, UserInfo, profile API). */
const claimNameSchema = text(1, 200);

/** Each mapped claim's name at the provider; an omitted one keeps the provider's default. Unknown keys are refused. */
export const oidcClaimMappingSchema = z
  .object({
    subject: claimNameSchema.optional(),
    email: claimNameSchema.optional(),
    emailVerified: claimNameSchema.optional(),
    displayName: claimNameSchema.optional(),
    firstName: claimNameSchema.optional(),
    lastName: claimNameSchema.optional(),
    preferredUsername: claimNameSchema.optional(),
  })
  .strict();
export type OidcClaimMappingInput = z.output<typeof oidcClaimMappingSchema>;

/** A mapping as resolved for sign-in: null where the provider has no such claim. */
export type OidcClaimMapping = {
  readonly [K in OidcMappedClaim]: K extends 'subject' ? string : string | null;
};

const IMAGE_DATA_URL =
  /^data:image\/(?:png|jpeg|gif|webp|svg\+xml)((?:;[a-z0-9-]+=[a-z0-9.-]+)*)(;base64)?,(.+)$/i;

/**
 * A provider button's image as a `data:image/…` URL (png, jpeg, gif, webp, svg+xml), base64 or
 * percent-encoded, at most {@link OIDC_LOGO_MAX_LENGTH} characters. Quotes, angle brackets and spaces
 * are refused, so that the URL stays one attribute value wherever a page shows it.
 */
export const logoDataUrlSchema = z
  .string()
  .trim()
  .max(OIDC_LOGO_MAX_LENGTH, { message: `must be at most ${OIDC_LOGO_MAX_LENGTH} characters` })
  .superRefine((value, ctx) => {
    const match = IMAGE_DATA_URL.exec(value);
    if (match === null) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be a data:image/… URL (png, jpeg, gif, webp or svg+xml), for example data:image/png;base64,…',
      });
      return;
    }
    const body = match[3] ?? '';
    const valid =
      match[2] === undefined
        ? /^[A-Za-z0-9\-._~!$&()*+,;=:@/?%]+$/.test(body)
        : /^[A-Za-z0-9+/]+={0,2}$/.test(body);
    if (!valid) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must hold base64 (with ;base64) or percent-encoded data without quotes, spaces or angle brackets',
      });
    }
  });

/** docs/reference/federation.md MicrosoftTenant: a tenant id, a verified domain, or common, organizations, consumers. */
export const microsoftTenantSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9.-]{0,98}[a-z0-9])?$/, {
    message: 'must be a tenant id, a domain, common, organizations or consumers',
  });

/** An Apple team id or key id (10 characters at Apple; letters and digits). */
const appleIdentifierSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9]+$/, { message: 'must be letters and digits (10 characters at Apple)' });

/** A PKCS#8 PEM private key (line breaks kept); that it is an EC P-256 key is checked by the server. */
export const applePrivateKeyPemSchema = z
  .string()
  .trim()
  .max(8192)
  .regex(/^-----BEGIN PRIVATE KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END PRIVATE KEY-----$/, {
    message: 'must be a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY----- … -----END PRIVATE KEY-----)',
  });

/** The provider's client secret (a secret: never in any answer). */
const providerClientSecretSchema = text(1, 2048);

/** The provider's client id (Apple: the services id). */
const providerClientIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(512)
  .regex(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces' });

const connectionFields = {
  providerType: oidcProviderTypeSchema,
  /** Optional for the built-ins (their provider's name), required for Custom. */
  displayName: optionalText(text(1, 200)),
  clientId: providerClientIdSchema,
  clientSecret: optionalText(providerClientSecretSchema),
  allowedCallbackUris: z
    .array(callbackUriSchema)
    .min(1, { message: 'must list at least one callback URI' })
    .max(20)
    .transform((uris) => [...new Set(uris)]),
  /** Custom only (built-ins decide); omitted = true when a discoveryUrl is given. */
  useDiscovery: z
    .boolean()
    .nullish()
    .transform((value) => value ?? null),
  discoveryUrl: optionalText(providerUrlSchema),
  issuer: optionalText(providerUrlSchema),
  authorizationEndpoint: optionalText(providerUrlSchema),
  tokenEndpoint: optionalText(providerUrlSchema),
  userInfoEndpoint: optionalText(providerUrlSchema),
  jwksUri: optionalText(providerUrlSchema),
  microsoftTenant: optionalText(microsoftTenantSchema),
  /** Empty or omitted = the provider's default scopes. */
  scopes: z
    .array(upstreamScopeSchema)
    .max(50)
    .nullish()
    .transform((scopes) => [...new Set(scopes ?? [])]),
  claimMapping: oidcClaimMappingSchema
    .nullish()
    .transform((mapping) =>
      mapping === null || mapping === undefined || Object.keys(mapping).length === 0 ? null : mapping,
    ),
  clientAuthMethod: oidcClientAuthMethodSchema
    .nullish()
    .transform((method): OidcClientAuthMethod => method ?? 'ClientSecretPost'),
  /** Omitted = true, except Apple (no UserInfo). */
  useUserInfo: z
    .boolean()
    .nullish()
    .transform((value) => value ?? null),
  appleTeamId: optionalText(appleIdentifierSchema),
  appleKeyId: optionalText(appleIdentifierSchema),
  applePrivateKeyPem: optionalText(applePrivateKeyPemSchema),
  /** Omitted = the built-in's default image (none for Custom). */
  logoDataUrl: optionalText(logoDataUrlSchema),
  organizationId: optionalText(recordIdSchema),
};

/** POST /oidc-connections: the connection's fields (docs/reference/federation.md) plus `organizationId` and `enabled` (default true). */
export const createOidcConnectionBodySchema = z.object({
  ...connectionFields,
  enabled: z.boolean().default(true),
});
export type CreateOidcConnectionBody = z.input<typeof createOidcConnectionBodySchema>;
export type CreateOidcConnectionInput = z.output<typeof createOidcConnectionBodySchema>;

/**
 * PUT /oidc-connections/{id}: the whole input again (omitted optional fields return to their defaults),
 * except that omitted secrets (`clientSecret`, `applePrivateKeyPem`) and `enabled` keep their values.
 * `providerType` must be the connection's own.
 */
export const updateOidcConnectionBodySchema = z.object({
  ...connectionFields,
  enabled: z.boolean().optional(),
});
export type UpdateOidcConnectionBody = z.input<typeof updateOidcConnectionBodySchema>;
export type UpdateOidcConnectionInput = z.output<typeof updateOidcConnectionBodySchema>;

/** The `{id}` of an OIDC connection route. */
export const oidcConnectionPathSchema = z.object({ id: recordIdSchema });

/**
 * The `{connectionId}` of the hosted provider button (`/login/oidc/{connectionId}`): any string, since one
 * that names no enabled connection shows the sign-in page again, saying the provider is not available.
 */
export const oidcProviderPathSchema = z.object({ connectionId: z.string() });

// ---- Records --------------------------------------------------------------------------------------

const nullableString = z.string().nullable();

/**
 * What a connection resolves to for sign-in: the protocol, the endpoints (an endpoint that is null is
 * read from the discovery document), scopes, claim mapping and client authentication in effect.
 * `issuerCheck` `microsoft_tenant`: the discovered issuer's `{tenantid}` is the ID token's `tid`.
 */
export const svcOidcResolvedProviderSchema = z.object({
  protocol: z.enum(['oidc', 'oauth_profile']),
  authenticationMethod: z.enum(OIDC_AUTHENTICATION_METHODS),
  discoveryUrl: nullableString,
  issuer: nullableString,
  issuerCheck: z.enum(['exact', 'microsoft_tenant']),
  authorizationEndpoint: nullableString,
  tokenEndpoint: nullableString,
  userInfoEndpoint: nullableString,
  jwksUri: nullableString,
  /** GitHub's emails API (`<userInfoEndpoint>/emails`); null for the others. */
  emailsEndpoint: nullableString,
  microsoftTenant: nullableString,
  scopes: z.array(z.string()),
  claimMapping: z.object({
    subject: z.string(),
    email: nullableString,
    emailVerified: nullableString,
    displayName: nullableString,
    firstName: nullableString,
    lastName: nullableString,
    preferredUsername: nullableString,
  }),
  clientAuthMethod: z.enum(OIDC_CLIENT_AUTH_METHODS),
  useUserInfo: z.boolean(),
  logoDataUrl: nullableString,
});
export type SvcOidcResolvedProvider = z.output<typeof svcOidcResolvedProviderSchema>;

/**
 * A connection as operators read it: the settings as configured (null: the provider's default) and,
 * read-only, what they resolve to. Secrets are never shown, only whether one is set.
 */
export const svcOidcConnectionSchema = z.object({
  id: z.string(),
  providerType: z.enum(OIDC_PROVIDER_TYPES),
  displayName: z.string(),
  clientId: z.string(),
  clientSecretSet: z.boolean(),
  allowedCallbackUris: z.array(z.string()),
  useDiscovery: z.boolean(),
  discoveryUrl: nullableString,
  issuer: nullableString,
  authorizationEndpoint: nullableString,
  tokenEndpoint: nullableString,
  userInfoEndpoint: nullableString,
  jwksUri: nullableString,
  microsoftTenant: nullableString,
  scopes: z.array(z.string()),
  claimMapping: oidcClaimMappingSchema.nullable(),
  clientAuthMethod: z.enum(OIDC_CLIENT_AUTH_METHODS),
  useUserInfo: z.boolean().nullable(),
  appleTeamId: nullableString,
  appleKeyId: nullableString,
  applePrivateKeySet: z.boolean(),
  logoDataUrl: nullableString,
  organizationId: nullableString,
  enabled: z.boolean(),
  /** `dashboard` (made through the API) or `code` (seeded from `createSvc({ oidc })`, read-only here). */
  owner: z.enum(['dashboard', 'code']),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  resolved: svcOidcResolvedProviderSchema,
});
export type SvcOidcConnection = z.output<typeof svcOidcConnectionSchema>;

/** The answer of DELETE /oidc-connections/{id}. */
export interface SvcOidcConnectionDeleteResult {
  readonly deleted: true;
}

/**
 * An enabled provider as a sign-in UI offers it (docs/reference/federation.md; `GET /oidc/providers`
 * and ListEnabledProvidersAsync): a button with the provider's name and logo.
 */
export const svcOidcProviderSummarySchema = z.object({
  connectionId: z.string(),
  providerType: z.enum(OIDC_PROVIDER_TYPES),
  displayName: z.string(),
  logoDataUrl: z.string().nullable(),
});
export type SvcOidcProviderSummary = z.output<typeof svcOidcProviderSummarySchema>;
