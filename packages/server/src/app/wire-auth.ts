import type { AuditLog } from '../audit/audit-log.js';
import type { SvcConfig } from '../config/resolve.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { TokenEngineDeps } from '../oauth/tokens/deps.js';
import { createTokenEngine, type TokenEngine } from '../oauth/tokens/token-engine.js';
import type { TokenService } from '../oauth/tokens/token-service.js';
import type { FailureThrottle } from '../ratelimit/failure-throttle.js';
import type { HandedOutTokenLimit } from '../ratelimit/handed-out-tokens.js';
import type { SecuritySettingsService } from '../settings/security-settings-service.js';
import type { BrowserSessions } from '../signin/browser-sessions.js';
import type { ConsentGrants } from '../signin/consent-grants.js';
import { DirectSignIn } from '../signin/direct-sign-in.js';
import { RejectedSecretLimit } from '../ratelimit/rejected-secret-limit.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import { OrganizationPolicy } from '../signin/organization-policy.js';
import { PasswordAuthenticator } from '../signin/password-authenticator.js';
import type { HashPassword } from '../directory/password-hasher.js';
import { PendingAuthTokens } from '../signin/pending-auth-tokens.js';
import { SignInEngine } from '../signin/sign-in-engine.js';
import { SignupService } from '../signin/signup.js';
import type { Db } from '../storage/database.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { membershipRepository } from '../storage/repositories/memberships.js';
import { pendingAuthTokenRepository } from '../storage/repositories/pending-auth-tokens.js';
import { tokenStore } from '../storage/repositories/token-store.js';
import { accessTokenSessions } from '../storage/repositories/access-token-sessions.js';
import { userRepository } from '../storage/repositories/users.js';
import { ClientAuthenticatedSignIn } from '../signin/client-authenticated-sign-in.js';
import type { SecretBox } from '../kernel/crypto.js';
import { MfaOperations } from '../signin/methods/mfa/mfa-operations.js';
import type { MfaService } from '../signin/methods/mfa/mfa-service.js';
import type { MfaSettingsService } from '../signin/methods/mfa/mfa-settings.js';
import { SvcAuthAccount } from './facades/svc-auth-account.js';
import { SvcAuthMfa } from './facades/svc-auth-mfa.js';
import { SvcAuthSecuritySettings } from './facades/svc-auth-security-settings.js';
import type { SvcAuthGroups } from './facades/svc-auth-service.js';
import { SvcAuthSessions } from './facades/svc-auth-sessions.js';
import { SvcAuthSignIn } from './facades/svc-auth-sign-in.js';
import type { MembershipService } from '../directory/membership-service.js';
import type { OrganizationService } from '../directory/organization-service.js';
import type { UserService } from '../directory/user-service.js';
import type { OidcAccountLinking } from '../federation/oidc/account-linking.js';
import type { SvcAdminSettings } from './facades/svc-admin-settings.js';
import { wireApplicationAccess, type ApplicationAccessWiring } from './wire-application-access.js';
import { wireMfa } from './wire-mfa.js';

export interface WireAuthContext {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly audit: AuditLog;
  readonly securitySettings: SecuritySettingsService;
  readonly tokens: TokenService;
  readonly config: Pick<SvcConfig, 'openId' | 'failureLimits' | 'rateLimits'>;
  /** Signup creates accounts through the directory's services, exactly as operators do. */
  readonly directory: {
    readonly users: UserService;
    readonly organizations: OrganizationService;
    readonly memberships: MembershipService;
  };
  /** Issuer sessions, consents and MFA settings: one service each, shared with the operator API. */
  readonly browserSessions: BrowserSessions;
  readonly consents: ConsentGrants;
  readonly mfaSettings: MfaSettingsService;
  /** A signed-in user's linked provider identities (SvcAuthService's account operations). */
  readonly linkedIdentities: OidcAccountLinking;
  /** The operator API's security settings operations (validated, audited), which SvcAuthService offers too. */
  readonly settingsOperations: Pick<
    SvcAdminSettings,
    'getResolvedSecuritySettingsAsync' | 'updateSecuritySettingsAsync'
  >;
  /** Seals TOTP secrets with the master key. */
  readonly secretBox: SecretBox;
  /** The issuer name authenticator apps show (the public origin's host). */
  readonly totpIssuer: string;
  /** Counts failed checks of secrets across requests and nodes. */
  readonly failureThrottle: FailureThrottle;
  /** Counts calls per subject and window (the signup limit). */
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
  /** How passwords are hashed (config.passwordHashing). */
  readonly hashPassword: HashPassword;
}

/** The sign-in and token engine objects the adapters (/authorize, /token, /userinfo, hosted, headless, direct) use. */
export interface AuthEngine {
  /** Sessions, codes, refresh, access-token validation, revocation. */
  readonly tokens: TokenEngine;
  /** The login state machine (signIn, selectOrganization, pendingSelection). */
  readonly signIn: SignInEngine;
  readonly passwords: PasswordAuthenticator;
  readonly signup: SignupService;
  readonly organizations: OrganizationPolicy;
  readonly browserSessions: BrowserSessions;
  readonly consents: ConsentGrants;
  /** The direct JSON helpers' first-party gate and flows. */
  readonly direct: DirectSignIn;
  /** Rejected client secrets per client and address, for /token, /device_authorization and the direct helpers. */
  readonly clientSecrets: RejectedSecretLimit;
  /** Unknown codes and tokens at /token per client address (failureLimits.tokenIp, with `tokenChecks`). */
  readonly rejectedTokens: RejectedSecretLimit;
  /** Links, codes and states Svc handed out that were refused, per client address (failureLimits.tokenIp). */
  readonly tokenChecks: HandedOutTokenLimit;
  /** MFA: the engine's gate, challenge verification and TOTP enrollment. */
  readonly mfa: MfaService;
  /** The MFA operations of SvcAuthService and the direct routes. */
  readonly mfaOperations: MfaOperations;
  /** Application access: its checks (sign-ins, approvals, grants) and its operator API. */
  readonly applications: ApplicationAccessWiring;
}

/**
 * The SvcAuthService groups made over the engine alone; createSvc() adds those that need what is built
 * on the engine (the provider sign-in, the capabilities).
 */
export type EngineAuthGroups = Omit<SvcAuthGroups, 'providers' | 'capabilities'>;

/** Builds the sign-in and token engine over the database, and the SvcAuthService groups made over it. */
export function wireAuth(ctx: WireAuthContext): { engine: AuthEngine; facadeGroups: EngineAuthGroups } {
  const { db, clock, ids, audit } = ctx;
  const users = userRepository(db);
  const memberships = membershipRepository(db);
  const clients = clientRepository(db);
  const applications = wireApplicationAccess({ db, audit, clock, ids });
  const { access } = applications;

  const tokenDeps: TokenEngineDeps = {
    store: tokenStore(db),
    accessTokenSessions: accessTokenSessions(db),
    users,
    memberships,
    tokens: ctx.tokens,
    settings: ctx.securitySettings,
    audit,
    clock,
    ids,
    openIdEnabled: ctx.config.openId.enabled,
    access,
  };
  const tokens = createTokenEngine(tokenDeps);

  // Signup creates accounts exactly as the admin domain does (normalized, deduplicated email; argon2id;
  // generated slug), with the `system` actor in the audit trail.
  const {
    users: userService,
    organizations: organizationService,
    memberships: membershipService,
  } = ctx.directory;
  const signup = new SignupService(
    {
      createUser: (input) => userService.create(input),
      createOrganization: async (name) =>
        (await organizationService.create({ name, slug: null, primaryDomain: null })).id,
      addMembership: async (organizationId, userId, role) => {
        await membershipService.create({ organizationId, userId, role });
      },
      createPasswordlessUser: (input) => userService.createPasswordless(input),
    },
    { rateLimiter: ctx.rateLimiter, policy: ctx.config.rateLimits.signup },
  );

  const organizations = new OrganizationPolicy({ memberships });
  const passwords = new PasswordAuthenticator({
    users,
    ids,
    throttle: ctx.failureThrottle,
    rules: ctx.config.failureLimits,
    audit,
    hashPassword: ctx.hashPassword,
  });
  const mfa = wireMfa({
    db,
    settings: ctx.mfaSettings,
    organizations,
    secretBox: ctx.secretBox,
    totpIssuer: ctx.totpIssuer,
    failures: { throttle: ctx.failureThrottle, rule: ctx.config.failureLimits.mfaUser },
    audit,
    clock,
    ids,
  });
  const signIn = new SignInEngine({
    organizations,
    pending: new PendingAuthTokens({ store: pendingAuthTokenRepository(db), clock, ids }),
    mfa,
    access,
  });
  const { browserSessions, consents } = ctx;
  const clientSecrets = new RejectedSecretLimit({
    throttle: ctx.failureThrottle,
    rule: ctx.config.failureLimits.clientSecretIp,
    clock,
  });
  // Handed-out tokens: one rule, counted first where a lookup costs anyway, after a miss on the token path.
  const tokenChecks = { throttle: ctx.failureThrottle, rule: ctx.config.failureLimits.tokenIp, audit };
  const rejectedTokens = new RejectedSecretLimit({
    throttle: ctx.failureThrottle,
    rule: ctx.config.failureLimits.tokenIp,
    clock,
  });
  const direct = new DirectSignIn({
    clients,
    clientSecrets,
    rejectedTokens,
    tokenChecks,
    users,
    passwords,
    signup,
    engine: signIn,
    organizations,
    tokens,
    access,
    audit,
    clock,
  });

  const mfaOperations = new MfaOperations({ mfa, direct });
  const facadeGroups: EngineAuthGroups = {
    signIn: new SvcAuthSignIn({
      direct,
      clientAuthentication: new ClientAuthenticatedSignIn({ direct, users }),
    }),
    mfa: new SvcAuthMfa(mfaOperations),
    sessions: new SvcAuthSessions({ direct, tokens, browserSessions }),
    account: new SvcAuthAccount({ direct, consents, linkedIdentities: ctx.linkedIdentities }),
    securitySettings: new SvcAuthSecuritySettings(ctx.settingsOperations),
  };
  return {
    facadeGroups,
    engine: {
      tokens,
      signIn,
      passwords,
      signup,
      organizations,
      browserSessions,
      consents,
      direct,
      clientSecrets,
      rejectedTokens,
      tokenChecks,
      mfa,
      mfaOperations,
      applications,
    },
  };
}
