import { createScopeDisplayNameBodySchema } from '@svc/contract';
import { SvcConfigError } from '../kernel/errors.js';
import type { CodeScopeDisplayName } from '../oauth/scope-display-names/scope-display-names.js';
import type { ScopeDisplayNameOptions } from './options.js';

/**
 * Checks `createSvc({ scopeDisplayNames })` with the rules of the operator API's create body, so that
 * an entry the host sets could have been made by an operator too; a broken entry stops the start with a
 * message naming it and the field.
 */
export function resolveScopeDisplayNames(
  options: readonly ScopeDisplayNameOptions[] | undefined,
): readonly CodeScopeDisplayName[] {
  const entries = (options ?? []).map((option, index): CodeScopeDisplayName => {
    const parsed = createScopeDisplayNameBodySchema.safeParse(option);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) =>
        issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`,
      );
      throw new SvcConfigError(`scopeDisplayNames[${index}] is invalid: ${issues.join('; ')}.`);
    }
    const { scope, displayName, description } = parsed.data;
    return { scope, displayName, description };
  });
  const scopes = new Set<string>();
  for (const { scope } of entries) {
    if (scopes.has(scope)) throw new SvcConfigError(`scopeDisplayNames names scope '${scope}' twice.`);
    scopes.add(scope);
  }
  return entries;
}
