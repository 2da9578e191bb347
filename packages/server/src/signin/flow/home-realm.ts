/**
 * Home-realm discovery (SPEC.md "Home realm discovery result"): which way an email address signs in.
 * Today every address uses its password; SAML and OIDC connections answer `sso` here once they exist,
 * and the identify step then sends the browser to the connection instead of the password step.
 */
export type HomeRealm =
  | { readonly mode: 'password' }
  | {
      readonly mode: 'sso';
      readonly connectionId: string;
      readonly organizationId?: string;
      readonly organizationName?: string;
      readonly primaryDomain?: string;
    };

/** Decides the realm of a normalized email address. */
export type HomeRealmDiscovery = (email: string) => Promise<HomeRealm>;

/** The discovery of a service without SSO connections: everyone signs in with a password. */
export const passwordOnlyHomeRealm: HomeRealmDiscovery = () => Promise.resolve({ mode: 'password' });
