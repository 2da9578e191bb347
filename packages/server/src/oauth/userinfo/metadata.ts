import type { DiscoveryContribution } from '../discovery/discovery.js';

/**
 * docs/reference/tokens-and-sessions.md "Userinfo": the endpoint is mapped while OpenID provider mode and
 * `enableUserInfoEndpoint` are both on (both default on). `app/http.ts` mounts `userinfoRoutes` and
 * discovery advertises the endpoint only when this is true.
 */
/** The two settings that map the userinfo endpoint. */
export interface UserinfoSwitches {
  readonly openId: { readonly enabled: boolean; readonly enableUserInfoEndpoint: boolean };
}

export function isUserinfoMapped(config: UserinfoSwitches): boolean {
  return config.openId.enabled && config.openId.enableUserInfoEndpoint;
}

/** What the userinfo endpoint adds to discovery once its route is mounted. */
export function userinfoMetadata(issuer: string): DiscoveryContribution {
  return Object.freeze({ userinfo_endpoint: `${issuer}/userinfo` });
}
