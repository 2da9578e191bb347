/**
 * What the consent page says for the standard scopes. Any other scope is shown by its raw name: Svc
 * cannot know what an API's own scope means, and a made-up description would mislead.
 */
export const STANDARD_SCOPE_DESCRIPTIONS: Readonly<Record<string, string>> = Object.freeze({
  openid: 'Confirm who you are when you sign in',
  profile: 'See your name and username',
  email: 'See your email address',
  offline_access: 'Keep access while you are not using it',
});

/** A scope as the consent page lists it. */
export interface DescribedScope {
  readonly scope: string;
  /** The human description, or undefined when only the raw name can be shown. */
  readonly description: string | undefined;
}

/**
 * The scopes in request order without duplicates, each with its description: `overrides` (for example
 * operator-managed display names) first, then the standard ones.
 */
export function describeScopes(
  scopes: readonly string[],
  overrides: Readonly<Record<string, string>> = {},
): DescribedScope[] {
  return [...new Set(scopes)]
    .filter((scope) => scope !== '')
    .map((scope) => ({
      scope,
      description: Object.hasOwn(overrides, scope)
        ? overrides[scope]
        : Object.hasOwn(STANDARD_SCOPE_DESCRIPTIONS, scope)
          ? STANDARD_SCOPE_DESCRIPTIONS[scope]
          : undefined,
    }));
}
