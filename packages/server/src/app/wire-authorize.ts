import { AppOwnedUi } from '../headless/app-owned-ui.js';
import { headlessSignInOver } from '../headless/headless-sign-in.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { SvcConfig } from '../config/resolve.js';
import type { Antiforgery } from '../http/antiforgery.js';
import { EndSession } from '../hosted/logout/end-session.js';
import { BrowserLogout } from '../signin/browser-logout.js';
import type { HostedSignInDeps } from '../hosted/sign-in-deps.js';
import { AuthorizeFlow } from '../signin/flow/authorize-flow.js';
import type { ClientMetadataDocuments } from '../oauth/clients/metadata-documents/client-metadata-documents.js';
import type { DeviceAuthorizations } from '../oauth/device/device-authorizations.js';
import type { SigningKeys } from '../oauth/keys/signing-keys.js';
import { IdTokenHints } from '../oauth/tokens/id-token-hints.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { Db } from '../storage/database.js';
import { authRequestRepository } from '../storage/repositories/auth-requests.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { userRepository } from '../storage/repositories/users.js';
import type { SvcAuthExtensions } from './facades/svc-auth-service.js';
import type { ApplicationAccess } from '../applications/application-access.js';
import type { ScopeDisplayNames } from '../oauth/scope-display-names/scope-display-names.js';
import type { TokenEngine } from '../oauth/tokens/token-engine.js';
import type { BrowserSessions } from '../signin/browser-sessions.js';
import type { ConsentGrants } from '../signin/consent-grants.js';
import type { MfaService } from '../signin/methods/mfa/mfa-service.js';
import type { OrganizationPolicy } from '../signin/organization-policy.js';
import type { PasswordAuthenticator } from '../signin/password-authenticator.js';
import type { SignInEngine } from '../signin/sign-in-engine.js';
import type { SignupService } from '../signin/signup.js';
import { signInMethods } from './sign-in-methods.js';
import type { ProviderSignIn } from '../signin/methods/oidc/provider-steps.js';
import type { SamlSignInDeps } from '../signin/methods/saml/saml-steps.js';
import { wireInvitationAcceptance } from './wire-invitation-acceptance.js';

export interface WireAuthorizeContext {
  readonly db: Db;
  /** The sign-in engine the hosted flow drives, and the parts of it the methods and steps use. */
  readonly signIn: SignInEngine;
  readonly organizations: OrganizationPolicy;
  readonly browserSessions: BrowserSessions;
  readonly consents: ConsentGrants;
  readonly scopeDisplayNames: ScopeDisplayNames;
  readonly codes: TokenEngine['codes'];
  readonly access: ApplicationAccess;
  readonly passwords: PasswordAuthenticator;
  readonly signup: SignupService;
  readonly mfa: MfaService;
  readonly audit: AuditLog;
  readonly antiforgery: Antiforgery;
  readonly config: Pick<
    SvcConfig,
    'issuer' | 'authBase' | 'publicOrigin' | 'development' | 'clock' | 'ids' | 'rateLimits' | 'headless'
  >;
  /** The capabilities the hosted pages of passwordless sign-in, signup, reset and invitations use. */
  readonly capabilities: SvcAuthExtensions;
  /** The device authorization grant (app/wire-device.ts): the hosted /device pages resolve and decide codes. */
  readonly devices: Pick<DeviceAuthorizations, 'resolve' | 'approve' | 'deny'>;
  /** Client ID Metadata Documents (app/wire-discovery.ts), fetched at /authorize; null while they are off. */
  readonly clientDocuments?: ClientMetadataDocuments | null;
  /** Counts the user codes typed at /device (`config.rateLimits.deviceVerify`). */
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
  /** Sign-in through provider connections (app/wire-oidc-connections.ts). */
  readonly providers?: ProviderSignIn;
  /** Sign-in through SAML SSO connections (app/wire-sso-connections.ts). */
  readonly saml?: SamlSignInDeps;
  /** Verifies the ID token hints of RP-initiated logout. */
  readonly signingKeys: Pick<SigningKeys, 'verificationKey'>;
}

/**
 * The hosted authorization flow over the sign-in engine: the AuthorizeFlow (GET /authorize and the
 * sign-in steps), hosted logout and RP-initiated logout, and the deps object that `authorizeRoutes`
 * and `hostedSignInRoutes` take. Plain-http redirect URIs are allowed only for loopback hosts outside development.
 */
export function wireAuthorize(ctx: WireAuthorizeContext): HostedSignInDeps {
  const { db, audit, config, browserSessions, passwords } = ctx;
  const clients = clientRepository(db);
  const findClient = (clientId: string) => clients.findByClientId(clientId);
  const { account, invitations, invitationSignup } = ctx.capabilities;
  const accepting =
    invitations === undefined || invitationSignup === undefined
      ? undefined
      : wireInvitationAcceptance({
          db,
          passwords,
          browserSessions,
          invitations,
          signup: invitationSignup,
          audit,
          clock: config.clock,
        });
  const flow = new AuthorizeFlow(
    {
      requests: authRequestRepository(db),
      findClient,
      clientDocuments: ctx.clientDocuments ?? undefined,
      users: userRepository(db),
      signIn: ctx.signIn,
      organizations: ctx.organizations,
      browserSessions,
      consents: ctx.consents,
      scopeDisplay: ctx.scopeDisplayNames,
      codes: ctx.codes,
      access: ctx.access,
      audit,
      clock: config.clock,
      ids: config.ids,
      issuer: config.issuer,
      requireTlsRedirects: !config.development,
      ...(accepting === undefined ? {} : { invitations: accepting.binding }),
    },
    signInMethods({
      passwords,
      signup: ctx.signup,
      mfa: ctx.mfa,
      config,
      passwordless: ctx.capabilities.passwordless,
      phoneOtp: ctx.capabilities.phoneOtp,
      invitations: accepting,
      providers: ctx.providers,
      saml: ctx.saml,
      devices: ctx.devices,
      rateLimiter: ctx.rateLimiter,
    }),
  );
  const logout = new BrowserLogout({ browserSessions, findClient, audit });
  const users = userRepository(db);
  const endSession = new EndSession({
    logout,
    browserSessions,
    idTokenHints: new IdTokenHints({ keys: ctx.signingKeys, issuer: config.issuer }),
    findClient,
    findUser: (userId) => users.findById(userId),
  });
  const deps: HostedSignInDeps = {
    flow,
    logout,
    endSession,
    antiforgery: ctx.antiforgery,
    site: { authBase: config.authBase, publicOrigin: config.publicOrigin },
    clock: config.clock,
    ...(account === undefined ? {} : { account }),
  };
  const uiUrl = config.headless.uiUrl;
  return uiUrl === null ? deps : { ...deps, appUi: new AppOwnedUi(uiUrl, headlessSignInOver(deps)) };
}
