import type { SvcLoginResult, SvcOrganizationOption } from '@svc/contract';
import { toSvcTokenResponse, type IssuedTokens } from '../oauth/tokens/issued-tokens.js';

/** A direct sign-in's result before it is shaped into an SvcLoginResult. */
export type DirectLoginOutcome =
  | {
      readonly kind: 'organization_selection';
      readonly pendingAuthToken: string;
      readonly organizations: SvcOrganizationOption[];
    }
  | {
      readonly kind: 'mfa';
      readonly mfaToken: string;
      readonly enrollmentRequired: boolean;
      readonly methods: string[];
    }
  | { readonly kind: 'complete'; readonly tokens: IssuedTokens };

/** The record of a state that needs no tokens yet (false / null / empty where the state says nothing). */
const EMPTY_RESULT = {
  requiresOrganizationSelection: false,
  pendingAuthToken: null,
  organizations: [],
  tokens: null,
  requiresMfa: false,
  mfaToken: null,
  requiresMfaEnrollment: false,
  mfaMethods: null,
} satisfies SvcLoginResult;

/** A DirectLoginOutcome shaped into the SvcLoginResult of the wire and the in-process operations. */
export function toLoginResult(outcome: DirectLoginOutcome): SvcLoginResult {
  switch (outcome.kind) {
    case 'organization_selection':
      return {
        ...EMPTY_RESULT,
        requiresOrganizationSelection: true,
        pendingAuthToken: outcome.pendingAuthToken,
        organizations: outcome.organizations,
      };
    case 'mfa':
      return {
        ...EMPTY_RESULT,
        requiresMfa: true,
        mfaToken: outcome.mfaToken,
        requiresMfaEnrollment: outcome.enrollmentRequired,
        mfaMethods: outcome.methods,
      };
    case 'complete':
      return { ...EMPTY_RESULT, tokens: toSvcTokenResponse(outcome.tokens) };
  }
}
